import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { type TscRun, TypeScriptChecker } from "./_typescript-check.ts"
import type { Run } from "./helpers.ts"
import { linkWorkspacePackages, printedToolIds, run, runCli, workspaceDirectory } from "./helpers.ts"

type Variant = { location: "project" | "plugin" | "global"; language: "ts" | "js"; exports: boolean }

// The CI of the templates: each template is scaffolded by the built bin into a temporary folder in
// TypeScript and JavaScript, with default and named exports, as project tools, as a plugin package
// and in the global folder; each result is type-checked, tested with its own generated test, and
// loaded with tool-tester's discovery, whose ids must be the ones create-tool printed. One
// TypeScript instance type-checks every variant and one vitest run tests them all.
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

const toolTester = join(workspaceDirectory, "packages/tool-tester/bin.js")
const vitest = join(workspaceDirectory, "node_modules/vitest/vitest.mjs")

/** What one variant got, from the runs every variant of a template shares. */
type Checked = {
  created: Run
  root: string
  /** The test script of its package.json, as `npm test` would run it. */
  testScript: string
  /** The `tsc -p tsconfig.build.json` the test script runs first (plugin packages in TypeScript). */
  build: TscRun | undefined
  typecheck: TscRun
  /** vitest's verdict on each of its test files. */
  tests: Array<{ file: string; status: string; passed: number; failed: number }>
  listed: Run
}

// The two test scripts the templates write: vitest, after the build for a TypeScript plugin package.
const VITEST_ONLY = "vitest run"
const BUILD_THEN_VITEST = "tsc -p tsconfig.build.json && vitest run"

export function checkTemplate(template: string): void {
  // Every variant is scaffolded first; then one TypeScript instance type-checks (and builds) them all
  // and one vitest run runs all their tests (each variant a vitest project with its own config), as
  // `tsc` and `npm test` would in each: a tsc and a vitest start per variant cost most of the time.
  describe(`template ${template}`, () => {
    let checked: Map<Variant, Checked>
    let parent: string | undefined
    // The bound of the five variants' work together: what each had on its own (180 s) five times.
    beforeAll(async () => {
      parent = realpathSync(mkdtempSync(join(tmpdir(), "create-tool-")))
      checked = await checkVariants(template, parent)
    }, 900_000)
    // Here, not in beforeAll: a hook registered while hooks run is never called (the folder was left).
    afterAll(() => {
      if (parent !== undefined) rmSync(parent, { recursive: true, force: true, maxRetries: 3 })
    })

    test.each(variants)(
      "$location, $language, named exports: $exports: type-checks, passes its test, and tool-tester finds the printed ids",
      (variant) => {
        const { created, testScript, build, typecheck, tests, listed } = checked.get(variant)!
        expect(created.stderr).toBe("")
        expect(created.code).toBe(0)
        const printed = printedToolIds(created.stdout)
        // A plugin's tool id is its package name without the opencode- prefix.
        const id = "sample"
        expect(printed).toEqual(variant.exports ? [`${id}_first`, `${id}_second`] : [id])

        expect(typecheck.output).toBe("")
        expect(typecheck.code).toBe(0)

        expect(testScript).toBe(
          variant.location === "plugin" && variant.language === "ts" ? BUILD_THEN_VITEST : VITEST_ONLY,
        )
        if (build !== undefined) {
          expect(build.output).toBe("")
          expect(build.code).toBe(0)
        }
        expect(tests.length).toBeGreaterThan(0)
        for (const file of tests) {
          expect(file.status, file.file).toBe("passed")
          expect(file.failed, file.file).toBe(0)
          expect(file.passed, file.file).toBeGreaterThan(0)
        }

        expect(listed.code, listed.stderr).toBe(0)
        const discovered = JSON.parse(listed.stdout) as { tools: Array<{ id: string; source: string }> }
        const custom = discovered.tools.filter((tool) => tool.source !== "builtin").map((tool) => tool.id)
        expect(custom.sort()).toEqual([...printed].sort())
      },
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
  "preserve",
  "--moduleResolution",
  "bundler",
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

async function checkVariants(template: string, parent: string): Promise<Map<Variant, Checked>> {
  const scaffolded = await Promise.all(
    variants.map(async (variant, index) => {
      const cwd = join(parent, `variant-${index}`)
      mkdirSync(cwd)
      // A plugin package made inside a project whose own tools cannot load here: the package's test
      // must test the plugin alone, not fail on the folders above it.
      if (variant.location === "plugin") {
        mkdirSync(join(cwd, ".opencode", "tools"), { recursive: true })
        writeFileSync(join(cwd, ".opencode", "tools", "unrelated.ts"), 'import "a-package-not-installed"\n')
      }
      const env = { XDG_CONFIG_HOME: join(cwd, "config"), HOME: join(cwd, "home") }
      const name = variant.location === "plugin" ? "opencode-sample" : "sample"
      const args = [name, "--template", template, "--no-interactive"]
      if (variant.location !== "project") args.push(`--${variant.location}`)
      if (variant.language === "js") args.push("--js")
      if (variant.exports) args.push("--exports", "first,second")
      const created = await runCli(args, { cwd, env })
      const root =
        variant.location === "project"
          ? join(cwd, ".opencode")
          : variant.location === "plugin"
            ? join(cwd, name)
            : join(cwd, "config/opencode")
      return { variant, cwd, env, root, created }
    }),
  )
  const made = scaffolded.filter(({ created }) => created.code === 0)
  for (const { root } of made) linkWorkspacePackages(root)

  // One TypeScript instance: each variant's `tsc` (and the build its test script runs first).
  const checker = new TypeScriptChecker()
  const typescript = new Map(
    made.map(({ variant, root }) => {
      const testScript = readTestScript(root)
      const build = testScript.startsWith("tsc -p tsconfig.build.json")
        ? checker.project(join(root, "tsconfig.build.json"))
        : undefined
      const typecheck =
        variant.language === "ts"
          ? checker.project(join(root, "tsconfig.json"))
          : checker.files(checkJsFlags, javascriptFiles(root), root)
      return [variant, { testScript, build, typecheck }] as const
    }),
  )

  // One vitest run: every variant is a project of it, with its own root and config.
  const config = join(parent, "vitest.config.mjs")
  const report = join(parent, "vitest-report.json")
  const projects = made.map(({ root }, index) => {
    const own = join(root, "vitest.config.js")
    return { root, ...(existsSync(own) ? { extends: own } : {}), test: { name: `variant-${index}` } }
  })
  writeFileSync(config, `export default ${JSON.stringify({ test: { projects } })}\n`)
  const tested = await run(
    process.execPath,
    [vitest, "run", "--config", config, "--reporter=json", `--outputFile.json=${report}`],
    { cwd: parent, env: { XDG_CONFIG_HOME: join(parent, "config"), HOME: join(parent, "home") }, timeout: 600_000 },
  )
  const results = existsSync(report)
    ? (
        JSON.parse(readFileSync(report, "utf8")) as {
          testResults: Array<{ name: string; status: string; assertionResults: Array<{ status: string }> }>
        }
      ).testResults
    : []
  if (results.length === 0) throw new Error(`vitest reported nothing:\n${tested.stdout}${tested.stderr}`)

  // tool-tester's discovery, on each variant, at once.
  const listed = await Promise.all(
    made.map(({ variant, cwd, env, root }) => {
      const where =
        variant.location === "plugin"
          ? ["--dir", root, "--plugin", root, "--no-global"]
          : variant.location === "project"
            ? ["--dir", cwd, "--no-global"]
            : ["--dir", cwd]
      // The plugin alone, as its generated test loads it: not the project folders above it.
      const own = variant.location === "plugin" ? { ...env, OPENCODE_DISABLE_PROJECT_CONFIG: "1" } : env
      return run(process.execPath, [toolTester, "list", ...where, "--json"], { cwd, env: own })
    }),
  )

  return new Map(
    scaffolded.map(({ variant, root, created }) => {
      const index = made.findIndex((entry) => entry.variant === variant)
      const tests = results
        .filter((result) => result.name.startsWith(`${root}/`))
        .map((result) => ({
          file: result.name,
          status: result.status,
          passed: result.assertionResults.filter((assertion) => assertion.status === "passed").length,
          failed: result.assertionResults.filter((assertion) => assertion.status !== "passed").length,
        }))
      const none: TscRun = { output: "not scaffolded", code: 1 }
      const { testScript, build, typecheck } = typescript.get(variant) ?? {
        testScript: "",
        build: none,
        typecheck: none,
      }
      return [
        variant,
        {
          created,
          root,
          testScript,
          build,
          typecheck,
          tests,
          listed: listed[index] ?? { code: 1, stdout: "", stderr: "not scaffolded" },
        },
      ]
    }),
  )
}

function readTestScript(root: string): string {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts?: { test?: string } }
  return manifest.scripts?.test ?? ""
}
