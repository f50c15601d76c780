// The test helpers keep each test away from the developer's machine on every OS (issue 33): the
// CLI they run gets a home whose config, data, cache and state folders are all inside the test's
// own folder, Windows' USERPROFILE, APPDATA and LOCALAPPDATA included, and the temporary folders
// they make are named by their real path, as a process started there sees its working folder.
import { realpathSync, symlinkSync } from "node:fs"
import path from "node:path"
import { describe, expect, test, vi } from "vitest"
import { runCli, useTmpDir } from "./helpers.ts"
import { tmpProject } from "./support/tmp-project.ts"

const printsItsHome = `export default { description: "The folders a user's config is read from", args: {}, async execute() {
  const names = ["HOME", "USERPROFILE", "APPDATA", "LOCALAPPDATA", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"]
  return JSON.stringify(Object.fromEntries(names.map((name) => [name, process.env[name] ?? null])))
} }
`

describe("the test helpers", { timeout: 120_000 }, () => {
  test("give the CLI a home whose every config, data, cache and state folder is inside it, Windows' included", async () => {
    const project = tmpProject({ ".opencode/tools/home.ts": printsItsHome })
    const home = useTmpDir("tool-tester-home-")
    const result = await runCli(["run", "home", "--no-global", "--engine", "node", "--json"], { cwd: project, home })
    expect(result.exitCode, result.stderr).toBe(0)
    const seen = JSON.parse((JSON.parse(result.stdout) as { output: string }).output) as Record<string, string | null>
    for (const [name, value] of Object.entries(seen)) {
      expect(value, name).not.toBeNull()
      expect(path.relative(home, value!).startsWith(".."), `${name}=${value} is outside ${home}`).toBe(false)
    }
  })

  test("name a temporary folder by its real path when the temp folder is reached through a link (macOS: /var is /private/var)", () => {
    const real = useTmpDir("tool-tester-real-tmp-")
    const link = path.join(useTmpDir("tool-tester-link-"), "tmp")
    symlinkSync(real, link, process.platform === "win32" ? "junction" : "dir")
    vi.stubEnv("TMPDIR", link)
    vi.stubEnv("TMP", link)
    vi.stubEnv("TEMP", link)
    try {
      const made = useTmpDir("tool-tester-inside-")
      expect(made).toBe(realpathSync.native(made))
      expect(path.dirname(made)).toBe(real)
    } finally {
      vi.unstubAllEnvs()
    }
  })
})
