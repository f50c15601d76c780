import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { run, useTmpDir, workspaceOpencode } from "./helpers.ts"

// docs/scaffolding.md: a private registry's .npmrc goes in .opencode/, where npm (--prefix) and bun
// (--cwd) read it. The registry here is a closed port: an install that used it fails to connect.

async function installsFrom(command: string, env: Record<string, string>): Promise<void> {
  const cwd = useTmpDir()
  mkdirSync(join(cwd, ".opencode"))
  writeFileSync(join(cwd, ".opencode/package.json"), JSON.stringify({ dependencies: { "left-pad": "1.3.0" } }))
  writeFileSync(join(cwd, ".opencode/.npmrc"), "registry=http://127.0.0.1:9/\n")
  const result = await run("bash", ["-c", command], { cwd, env, timeout: 60_000 })
  expect(result.code).not.toBe(0)
  expect(result.stdout + result.stderr).toMatch(/ECONNREFUSED|ConnectionRefused/)
}

test("npm reads the registry of .opencode/.npmrc", async () => {
  await installsFrom("npm install --prefix .opencode --fetch-retries=0 --no-audit --no-fund", {})
}, 90_000)

// opencode's binary is Bun 1.3.14 (BUN_BE_BUN=1), installed for this platform (scripts/install-opencode.mjs).
const bun = workspaceOpencode.binary
test.skipIf(bun === undefined)(
  `bun reads the registry of .opencode/.npmrc${workspaceOpencode.reason}`,
  async () => {
    await installsFrom(`${JSON.stringify(bun)} install --cwd .opencode`, { BUN_BE_BUN: "1" })
  },
  90_000,
)
