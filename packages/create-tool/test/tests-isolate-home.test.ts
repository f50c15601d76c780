// The test helpers start create-tool with a home of its own on every OS (issue 33): the developer's
// global opencode folder (their XDG_CONFIG_HOME, ~/.config, or USERPROFILE on Windows) is neither
// read nor written by a test.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, test, vi } from "vitest"
import { runCli, useTmpDir } from "./helpers.ts"

test("a developer's own global tools are not seen, nor written to, by create-tool under test", async () => {
  const developer = useTmpDir("create-tool-developer-")
  mkdirSync(join(developer, "opencode", "tools"), { recursive: true })
  writeFileSync(join(developer, "opencode", "tools", "weather.js"), "export default {}")
  vi.stubEnv("XDG_CONFIG_HOME", developer)
  vi.stubEnv("HOME", developer)
  vi.stubEnv("USERPROFILE", developer)
  try {
    const run = await runCli(["weather", "--global"], { cwd: useTmpDir() })
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(readdirSync(join(developer, "opencode", "tools"))).toEqual(["weather.js"])
    expect(existsSync(join(developer, ".config"))).toBe(false)
  } finally {
    vi.unstubAllEnvs()
  }
})
