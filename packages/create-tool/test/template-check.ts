import { readdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import { linkWorkspacePackages, printedToolIds, run, runCli, useTmpDir, workspaceDirectory } from "./helpers.ts"

type Variant = { location: "project" | "plugin" | "global"; language: "ts" | "js"; exports: boolean }

// The CI of the templates: each template is scaffolded by the built bin into a temporary folder in
// TypeScript and JavaScript, with default and named exports, as project tools, as a plugin package
// and in the global folder; each result is type-checked, tested with its own generated test, and
// loaded with tool-tester's discovery, whose ids must be the ones create-tool printed.
//
// The project and plugin variants cover every pair of (location, language, exports) values rather
// than all eight combinations, and the global folder adds one: those three choices touch different lines of the templates (file layout and test
// header; file set; export blocks), so pairs catch their interactions at about half the cost, which
// matters on a two-core CI where each variant runs tsc, vitest and tool-tester.
const variants: Variant[] = [
  { location: "project", language: "ts", exports: false },
  { location: "project", language: "js", exports: true },
  { location: "plugin", language: "ts", exports: true },
  { location: "plugin", language: "js", exports: false },
  { location: "global", language: "ts", exports: false },
]

const tsc = join(workspaceDirectory, "node_modules/typescript/bin/tsc")
const toolTester = join(workspaceDirectory, "packages/tool-tester/bin.js")

export function checkTemplate(template: string): void {
  describe(`template ${template}`, () => {
    test.each(variants)(
      "$location, $language, named exports: $exports: type-checks, passes its test, and tool-tester finds the printed ids",
      async (variant) => {
        const cwd = useTmpDir()
        const env = { XDG_CONFIG_HOME: join(cwd, "config"), HOME: join(cwd, "home") }
        const name = variant.location === "plugin" ? "opencode-sample" : "sample"
        const args = [name, "--template", template, "--no-interactive"]
        if (variant.location !== "project") args.push(`--${variant.location}`)
        if (variant.language === "js") args.push("--js")
        if (variant.exports) args.push("--exports", "first,second")
        const created = await runCli(args, { cwd, env })
        expect(created.stderr).toBe("")
        expect(created.code).toBe(0)
        const printed = printedToolIds(created.stdout)
        // A plugin's tool id is its package name without the opencode- prefix.
        const id = "sample"
        expect(printed).toEqual(variant.exports ? [`${id}_first`, `${id}_second`] : [id])

        const root =
          variant.location === "project"
            ? join(cwd, ".opencode")
            : variant.location === "plugin"
              ? join(cwd, name)
              : join(cwd, "config/opencode")
        linkWorkspacePackages(root)

        const typecheck =
          variant.language === "ts"
            ? await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: root })
            : await run(process.execPath, [tsc, ...checkJsFlags, ...javascriptFiles(root)], { cwd: root })
        expect(typecheck.stdout + typecheck.stderr).toBe("")
        expect(typecheck.code).toBe(0)

        const tested = await run("npm", ["test"], { cwd: root, env })
        expect(tested.code, tested.stdout + tested.stderr).toBe(0)
        expect(tested.stdout).toMatch(/Tests +\d+ passed/)

        const where =
          variant.location === "plugin"
            ? ["--dir", root, "--plugin", root, "--no-global"]
            : variant.location === "project"
              ? ["--dir", cwd, "--no-global"]
              : ["--dir", cwd]
        const listed = await run(process.execPath, [toolTester, "list", ...where, "--json"], { cwd, env })
        expect(listed.code, listed.stderr).toBe(0)
        const discovered = JSON.parse(listed.stdout) as { tools: Array<{ id: string; source: string }> }
        const custom = discovered.tools.filter((tool) => tool.source !== "builtin").map((tool) => tool.id)
        expect(custom.sort()).toEqual([...printed].sort())
      },
      180_000,
    )
  })
}

// --- internal ---

/** What the TypeScript variant's tsconfig says, for the JavaScript files (checkJs, as `// @ts-check` does). */
const checkJsFlags = [
  "--noEmit",
  "--allowJs",
  "--checkJs",
  "--strict",
  "--skipLibCheck",
  "--target",
  "es2022",
  "--module",
  "nodenext",
  "--moduleResolution",
  "nodenext",
  "--types",
  "node",
]

/** The .js files of a generated project, outside node_modules (whose links lead into the workspace). */
function javascriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules") return []
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return javascriptFiles(path)
    return entry.name.endsWith(".js") ? [path] : []
  })
}
