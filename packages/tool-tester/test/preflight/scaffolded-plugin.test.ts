import { spawn } from "node:child_process"
import { existsSync, mkdirSync, realpathSync, symlinkSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { expect, test } from "vitest"
import { packageRoot, useTmpDir } from "../helpers.ts"

const workspace = path.resolve(packageRoot, "../..")
const createTool = path.join(workspace, "packages/create-tool/bin.js")

// The plugin package create-tool scaffolds runs preflight in prepublishOnly, after its build: as
// generated, it must pass (npm publish would stop otherwise).
test("the plugin package create-tool scaffolds passes preflight in its own prepublishOnly", {
  timeout: 300_000,
}, async () => {
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

  const published = await run("npm", ["run", "prepublishOnly"], { cwd: root, env })
  expect(published.code, published.output).toBe(0)
  expect(published.output).toContain(
    "tsc -p tsconfig.build.json && npx -y -p @opencode-ai/tool-tester -p fast-check@^4.11.0 -p publint@^0.3.25 -p @arethetypeswrong/core@^0.18.5 tool-tester preflight",
  )
  expect(published.output).toContain('entry   dist/index.js (exports["./server"].import)')
  expect(published.output).toContain("tools   weather")
  expect(published.output).toMatch(/call {4}weather \{"input":".*"\} completed/)
  expect(published.output).toContain("No problems found (6 packed files, 1 tool).")
})

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
