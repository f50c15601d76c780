import { spawn } from "node:child_process"
import { existsSync, mkdirSync, realpathSync, symlinkSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { expect, test } from "vitest"
import { opencode, packageRoot, useTmpDir } from "../helpers.ts"

const workspace = path.resolve(packageRoot, "../..")
const createTool = path.join(workspace, "packages/create-tool/bin.js")

// The plugin package create-tool scaffolds runs preflight in prepublishOnly, after its build: as
// generated, it must pass (npm publish would stop otherwise). Run by Bun (`bun run`, as `bun
// publish` runs it), the hardest of the four managers for a script: Bun rewrites `npx` to `bun x`,
// which takes one --package only, and `npm run` to `bun run`; npm runs the same command line.
test.skipIf(!opencode.binary)(
  `the plugin package create-tool scaffolds passes preflight in its own prepublishOnly, run by Bun${
    opencode.reason ? ` (${opencode.reason})` : ""
  }`,
  {
    timeout: 300_000,
  },
  async () => {
    if (!existsSync(path.join(workspace, "packages/create-tool/dist/cli.js")))
      throw new Error("Build create-tool first: pnpm run build at the repository root")
    const cwd = useTmpDir()
    const env = cleanEnv(cwd)
    const created = await run(process.execPath, [createTool, "opencode-weather", "--plugin", "--no-interactive"], {
      cwd,
      env,
    })
    expect(created.code, created.output).toBe(0)
    const root = path.join(cwd, "opencode-weather")
    linkDevelopmentPackages(root)

    // Bun on PATH as `bun`, as an installed Bun is: the scripts it rewrites run `bun`.
    const bunFolder = path.join(cwd, "bun-bin")
    mkdirSync(bunFolder)
    symlinkSync(opencode.binary!, path.join(bunFolder, process.platform === "win32" ? "bun.exe" : "bun"))
    const bunEnv = { ...env, BUN_BE_BUN: "1", PATH: `${bunFolder}${path.delimiter}${env["PATH"] ?? ""}` }
    const published = await run(opencode.binary!, ["run", "prepublishOnly"], { cwd: root, env: bunEnv })
    expect(published.code, published.output).toBe(0)
    // What Bun ran: its rewrite of the script's `npm run build`, then npm exec as written.
    expect(published.output).toContain(
      "$ bun run build && npm exec --yes --package=@opencode-ai/tool-tester --package=fast-check@^4.11.0 --package=publint@^0.3.25 --package=@arethetypeswrong/core@^0.18.5 -- tool-tester preflight",
    )
    expect(published.output).toContain('entry   dist/index.js (exports["./server"].import)')
    expect(published.output).toContain("tools   weather")
    expect(published.output).toMatch(/call {4}weather \{"input":".*"\} completed/)
    expect(published.output).toContain("No problems found (6 packed files, 1 tool).")
  },
)

// --- internal ---

/**
 * What `npm install` would give the package for its build and prepublishOnly: TypeScript, Node's
 * and Bun's types, @opencode-ai/plugin's types (the workspace's drop-in), tool-tester with its bin and what
 * its preflight needs (devDependencies of the template).
 * Users of the published package get the real @opencode-ai/plugin: preflight installs it from npm.
 */
function linkDevelopmentPackages(folder: string): void {
  const links: Record<string, string> = {
    "@opencode-ai/plugin": path.join(workspace, "packages/plugin"),
    // Where npm puts @opencode-ai/plugin's zod, which the tool's declarations name.
    zod: realpathSync(path.join(workspace, "packages/plugin/node_modules/zod")),
    "@opencode-ai/tool-tester": packageRoot,
    typescript: realpathSync(path.join(workspace, "node_modules/typescript")),
    "@types/node": realpathSync(path.join(workspace, "node_modules/@types/node")),
    "@types/bun": realpathSync(path.join(workspace, "node_modules/@types/bun")),
    ".bin/tsc": realpathSync(path.join(workspace, "node_modules/typescript/bin/tsc")),
    ".bin/tool-tester": path.join(packageRoot, "bin.js"),
    ...Object.fromEntries(
      ["fast-check", "publint", "@arethetypeswrong/core"].map((name) => [
        name,
        realpathSync(path.join(packageRoot, "node_modules", name)),
      ]),
    ),
  }
  for (const [name, target] of Object.entries(links)) {
    const link = path.join(folder, "node_modules", name)
    mkdirSync(path.dirname(link), { recursive: true })
    symlinkSync(target, link)
  }
}

/** This process's environment without what a surrounding npm, pnpm or vitest run sets, with a throw-away home and this user's npm cache. */
function cleanEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(VITEST|TEST$|NODE_OPTIONS$|npm_|FORCE_COLOR$|OPENCODE_)/.test(key)) continue
    env[key] = value
  }
  return {
    ...env,
    HOME: path.join(home, "home"),
    XDG_CONFIG_HOME: path.join(home, "config"),
    XDG_CACHE_HOME: path.join(home, "cache"),
    npm_config_cache: process.env["npm_config_cache"] ?? path.join(os.homedir(), ".npm"),
    npm_config_update_notifier: "false",
    NO_COLOR: "1",
  }
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env })
    let output = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, output }))
  })
}
