import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { afterAll, beforeAll, describe, expect, test } from "vitest"

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const require = createRequire(import.meta.url)
// The repo's TypeScript, by absolute path, so the consumer project installs nothing but the tarball.
const tsc = path.join(path.dirname(require.resolve("typescript/package.json")), "bin", "tsc")
// shell.d.ts names Node's Buffer, as the real package's does; opencode tool projects have Node's
// (or Bun's) types, so the consumer gets the repo's @types/node rather than installing it.
const typeRoots = path.join(packageDirectory, "node_modules", "@types")

// Packing, installing and two tsc runs take a few seconds each; a loaded machine needs far more: the
// nodenext check took 130 s beside two other suites on two cores (stop 62), past a 120 s bound.
const timeout = 600_000

// A tool file as a user writes it: tool(), tool.schema, the context type and the Plugin type.
const toolFile = `import { type Plugin, type ToolContext, tool } from "@opencode-ai/plugin"

export const add = tool({
  description: "Adds two numbers",
  args: { a: tool.schema.number(), b: tool.schema.number().describe("The second number") },
  async execute(args, context: ToolContext) {
    context.metadata({ title: \`\${context.agent} adds\` })
    const sum: number = args.a + args.b
    // @ts-expect-error the args are typed from the schema, not any
    const wrong: string = args.a
    return { output: String(sum + wrong.length) }
  },
})

export const plugin: Plugin = async ({ directory }) => ({ tool: { add }, config: async () => void directory })
`

let consumer = ""
let installed = ""

beforeAll(() => {
  consumer = mkdtempSync(path.join(os.tmpdir(), "plugin-consumer-"))
  const tarballs = path.join(consumer, "tarballs")
  mkdirSync(tarballs)
  // `npm pack` would ship `"zod": "catalog:"`, which npm cannot install; pnpm pack writes the
  // catalog's version, as `pnpm publish` does, so this is the tarball users get.
  execFileSync("npx", ["-y", "pnpm@10.34.9", "pack", "--pack-destination", tarballs], {
    cwd: packageDirectory,
    stdio: "ignore",
  })
  const [tarball] = readdirSync(tarballs)
  if (!tarball) throw new Error("pnpm pack wrote no tarball")
  writeFileSync(
    path.join(consumer, "package.json"),
    `${JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2)}\n`,
  )
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", path.join(tarballs, tarball)], {
    cwd: consumer,
    stdio: "ignore",
    env: { ...process.env, npm_config_loglevel: "silent" },
  })
  installed = path.join(consumer, "node_modules", "@opencode-ai", "plugin")
  writeFileSync(path.join(consumer, "tool.ts"), toolFile)
}, timeout)

afterAll(() => {
  if (consumer) rmSync(consumer, { recursive: true, force: true })
})

/** Runs `tsc --noEmit` in the consumer project with strict settings; returns its error lines. */
function typecheck(moduleResolution: "bundler" | "nodenext"): string[] {
  const tsconfig = `tsconfig.${moduleResolution}.json`
  const compilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    // Check the declaration files too: that is where these errors would be.
    skipLibCheck: false,
    noEmit: true,
    target: "ES2022",
    // plugin.d.ts names HeadersInit, as the real package does: the DOM lib (or Bun's types) declares it.
    lib: ["ES2023", "DOM"],
    module: moduleResolution === "bundler" ? "preserve" : "nodenext",
    moduleResolution,
    types: ["node"],
    typeRoots: [typeRoots],
  }
  writeFileSync(path.join(consumer, tsconfig), JSON.stringify({ compilerOptions, files: ["tool.ts"] }, null, 2))
  try {
    execFileSync(process.execPath, [tsc, "-p", tsconfig, "--pretty", "false"], { cwd: consumer, encoding: "utf8" })
    return []
  } catch (error) {
    const output = (error as { stdout?: string }).stdout ?? String(error)
    return output.split("\n").filter((line) => line.trim() !== "")
  }
}

describe("the packed package installed with npm", () => {
  test(
    "ships declaration files whose relative imports name files the package ships",
    () => {
      const dist = path.join(installed, "dist")
      const declarations = readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((file) =>
        file.endsWith(".d.ts"),
      )
      expect(declarations).toEqual(expect.arrayContaining(["index.d.ts", "tool.d.ts"]))
      const unshipped = declarations.flatMap((declaration) => {
        const file = path.join(dist, declaration)
        const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"))
        return importedFiles
          .map((imported) => imported.fileName)
          .filter((specifier) => specifier.startsWith("."))
          .filter((specifier) => !existsSync(path.resolve(path.dirname(file), specifier)))
          .map((specifier) => `${declaration} imports ${specifier}`)
      })
      expect(unshipped).toEqual([])
    },
    timeout,
  )

  test(
    "type-checks a strict tool file with moduleResolution bundler",
    () => {
      expect(typecheck("bundler")).toEqual([])
    },
    timeout,
  )

  test(
    "type-checks a strict tool file with moduleResolution nodenext",
    () => {
      expect(typecheck("nodenext")).toEqual([])
    },
    timeout,
  )
})
