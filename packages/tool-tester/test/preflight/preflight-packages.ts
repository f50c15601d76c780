// Plugin packages for the preflight tests, written into temporary folders: one that passes every
// check, and variations that break one check each.
import { chmodSync, existsSync, utimesSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import type { CliResult } from "../helpers.ts"
import { runCli, useTmpDir, writeFiles } from "../helpers.ts"

export type PackageFiles = Record<string, string>

/** A finding as preflight prints it with --json. */
type JsonFinding = { code: string; severity: string; file: string | null; message: string; data?: unknown }

export type PreflightJson = {
  package: {
    name: string | null
    packer: string | null
    files: string[]
    entry: { file: string; field: string } | null
  }
  tools: string[]
  runs: Array<{ tool: string; args: unknown; status: string; output: string; error?: { code: string } }>
  e2e?: {
    exitCode: number | null
    offered: string[]
    calls: Array<{ tool: string; ran: string | null; status: string | null }>
  }
  findings: JsonFinding[]
  engine: { name: string } | null
}

/** A plugin with no dependency: one tool, a plain object (opencode does not shape-check plugin tools). */
export function plainPlugin(name: string, manifest: Record<string, unknown> = {}): PackageFiles {
  return {
    "package.json": json({
      name,
      version: "1.0.0",
      type: "module",
      main: "./index.js",
      files: ["index.js"],
      ...manifest,
    }),
    "index.js": `export const Greeter = async () => ({
  tool: {
    greet: { description: "Greets someone", args: {}, execute: async () => "hello" },
  },
})
`,
  }
}

/**
 * A plain plugin whose `script` (prepack, postinstall) never ends: it writes its process id to
 * PREFLIGHT_TEST_PID_FILE, then lives ten minutes.
 */
export function hangingScriptPlugin(name: string, script: string): PackageFiles {
  return {
    ...plainPlugin(name, { files: ["index.js", "hang.cjs"], scripts: { [script]: "node hang.cjs" } }),
    "hang.cjs": `require("node:fs").writeFileSync(process.env.PREFLIGHT_TEST_PID_FILE, String(process.pid))
setInterval(() => {}, 600000)
`,
  }
}

/**
 * A TypeScript plugin as it is published: src/ built into dist/ (older sources), types first in
 * exports, "./server" for opencode, @opencode-ai/plugin a dependency.
 */
export function builtPlugin(name: string): PackageFiles {
  return {
    "package.json": json({
      name,
      version: "1.0.0",
      type: "module",
      main: "./dist/index.js",
      types: "./dist/index.d.ts",
      exports: {
        ".": { types: "./dist/index.d.ts", import: "./dist/index.js" },
        "./server": { types: "./dist/index.d.ts", import: "./dist/index.js" },
        "./package.json": "./package.json",
      },
      files: ["dist"],
      dependencies: { "@opencode-ai/plugin": "^1.18.33" },
    }),
    "tsconfig.json": json({ compilerOptions: { rootDir: "src", outDir: "dist", declaration: true } }),
    "src/index.ts": `import { type Plugin, tool } from "@opencode-ai/plugin"

export const Greeter: Plugin = async () => ({
  tool: {
    greet: tool({
      description: "Greets someone by name",
      args: { name: tool.schema.string().describe("Who to greet") },
      async execute(args) {
        return \`Hello, \${args.name}!\`
      },
    }),
  },
})
`,
    "dist/index.js": `import { tool } from "@opencode-ai/plugin";
export const Greeter = async () => ({
    tool: {
        greet: tool({
            description: "Greets someone by name",
            args: { name: tool.schema.string().describe("Who to greet") },
            async execute(args) {
                return \`Hello, \${args.name}!\`;
            },
        }),
    },
});
`,
    "dist/index.d.ts": `import { type Plugin } from "@opencode-ai/plugin";
export declare const Greeter: Plugin;
`,
  }
}

/**
 * The built plugin without its one dependency: the same src/ and dist/ layout and tsconfig, but
 * dist/ is plain JavaScript that imports nothing, so npm installs no package (a few seconds where
 * @opencode-ai/plugin's dependency tree takes ten or more), for the checks that only look at the build.
 */
export function dependencyFreeBuiltPlugin(name: string): PackageFiles {
  const files = builtPlugin(name)
  const { dependencies: _dependencies, ...manifest } = JSON.parse(files["package.json"]!) as Record<string, unknown>
  return {
    ...files,
    "package.json": json(manifest),
    "dist/index.js": `export const Greeter = async () => ({
    tool: {
        greet: { description: "Greets someone by name", args: {}, execute: async () => "Hello!" },
    },
});
`,
    "dist/index.d.ts": `export declare const Greeter: () => Promise<unknown>;
`,
  }
}

/** Writes a package and makes its sources older than its build (or, with `staleSources`, newer). */
export function writePackage(directory: string, files: PackageFiles, options: { staleSources?: boolean } = {}): string {
  writeFiles(directory, files)
  const sources = Object.keys(files).filter((file) => file.startsWith("src/"))
  const built = Object.keys(files).filter((file) => file.startsWith("dist/"))
  const now = Date.now() / 1000
  const [older, newer] = options.staleSources ? [built, sources] : [sources, built]
  for (const file of older) utimesSync(path.join(directory, file), now - 3600, now - 3600)
  for (const file of newer) utimesSync(path.join(directory, file), now, now)
  return directory
}

/**
 * `tool-tester preflight DIR --json` through the built bin. npm uses this user's own cache (the
 * bin runs with a throw-away HOME), so packages downloaded once are not downloaded again.
 */
export async function preflightCli(
  directory: string,
  extra: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<CliResult & { report: PreflightJson }> {
  const result = await runCli(["preflight", directory, "--json", ...extra], {
    env: { npm_config_cache: npmCache, npm_config_update_notifier: "false", ...env },
  })
  let report: PreflightJson
  try {
    report = JSON.parse(result.stdout) as PreflightJson
  } catch {
    throw new Error(`preflight printed no JSON report (exit ${result.exitCode}): ${result.stdout}\n${result.stderr}`)
  }
  return { ...result, report }
}

/** The codes of the findings, in order. */
export function codes(report: PreflightJson): string[] {
  return report.findings.map((finding) => finding.code)
}

/** PATH without any folder that holds a pnpm, and no npm_execpath: a machine without pnpm. */
export function withoutPnpm(): Record<string, string | undefined> {
  const folders = (process.env["PATH"] ?? "").split(path.delimiter)
  return {
    PATH: folders.filter((folder) => !existsSync(path.join(folder, "pnpm"))).join(path.delimiter),
    npm_execpath: undefined,
  }
}

/**
 * A machine whose only pnpm is npx's pnpm 10.34.9 (a sh script, or on Windows the .cmd that npm's
 * own shims are), and no npm_execpath: the environment preflight gets.
 */
export function withNpxPnpm(): Record<string, string | undefined> {
  return withNpxProgram("pnpm", "pnpm@10.34.9")
}

/** The same with `yarn` on PATH: npx's yarn 4.9.2. */
export function withNpxYarn(): Record<string, string | undefined> {
  return withNpxProgram("yarn", "@yarnpkg/cli-dist@4.9.2")
}

/** The same with a `yarn` on PATH that only prints `version` (a global yarn 1 without corepack: `1.22.22`). */
export function withYarnPrinting(version: string): Record<string, string | undefined> {
  return withProgram("yarn", `@echo ${version}`, `echo ${version}`)
}

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}

// --- internal ---

function withNpxProgram(name: string, spec: string): Record<string, string | undefined> {
  return withProgram(name, `@npx -y ${spec} %*`, `exec npx -y ${spec} "$@"`)
}

/** A program `name` on PATH (first), run by `cmd` on Windows (a .cmd) and by `sh` elsewhere. */
function withProgram(name: string, cmd: string, sh: string): Record<string, string | undefined> {
  const shims = useTmpDir()
  if (process.platform === "win32") writeFiles(shims, { [`${name}.cmd`]: `${cmd}\r\n` })
  else {
    writeFiles(shims, { [name]: `#!/bin/sh\n${sh}\n` })
    chmodSync(path.join(shims, name), 0o755)
  }
  const { PATH } = withoutPnpm()
  return { PATH: `${shims}${path.delimiter}${PATH}`, npm_execpath: undefined }
}

const npmCache = process.env["npm_config_cache"] ?? path.join(os.homedir(), ".npm")
