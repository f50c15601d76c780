import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { run, useTmpDir, workspaceDirectory } from "./helpers.ts"

// docs/scaffolding.md: a private registry's .npmrc goes in .opencode/, where npm (--prefix) and bun
// (--cwd) read it. The registry here is a closed port: an install that used it fails to connect.

const bun = join(workspaceDirectory, "node_modules/opencode-linux-x64/bin/opencode")

// The repository installs opencode's binary (Bun 1.3.14) for linux-x64 only.
const forms: Array<[string, string, Record<string, string>]> = [
  ["npm", "npm install --prefix .opencode --fetch-retries=0 --no-audit --no-fund", {}],
  ...(existsSync(bun)
    ? [["bun", `${bun} install --cwd .opencode`, { BUN_BE_BUN: "1" }] as [string, string, Record<string, string>]]
    : []),
]

test.each(forms)(
  "%s reads the registry of .opencode/.npmrc",
  async (_, command, env) => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode"))
    writeFileSync(join(cwd, ".opencode/package.json"), JSON.stringify({ dependencies: { "left-pad": "1.3.0" } }))
    writeFileSync(join(cwd, ".opencode/.npmrc"), "registry=http://127.0.0.1:9/\n")
    const result = await run("bash", ["-c", command], { cwd, env, timeout: 60_000 })
    expect(result.code).not.toBe(0)
    expect(result.stdout + result.stderr).toMatch(/ECONNREFUSED|ConnectionRefused/)
  },
  90_000,
)
