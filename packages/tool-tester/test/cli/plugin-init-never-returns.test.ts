// A plugin file that imports, and whose function never returns its hooks: opencode waits for it
// forever, with no tool at all. The load bound names the file and the plugin function, not the
// import, which finished (list said "importing it did not finish"); so does dev's bounded load.
import path from "node:path"
import { expect, test } from "vitest"
import { runCli } from "../helpers.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "../support/tmp-project.ts"

const plugin = "export const Hangs = async () => { await new Promise(() => {}); return {} }\n"

test.each(["bun", "node"])(
  "a plugin whose init never returns is TOOL_TIMEOUT naming its function, under the %s engine",
  { timeout: 120_000 },
  async (engine) => {
    const directory = tmpProject({ ".opencode/tools/fine.ts": toolSource("fine"), "hangs.ts": plugin })
    const file = path.join(directory, "hangs.ts")
    const listed = await runCli(["list", "--no-global", "--plugin", "./hangs.ts", "--engine", engine], {
      cwd: directory,
      env: { TOOL_TESTER_LOAD_TIMEOUT_MS: "3000" },
    })
    expect(listed.exitCode).toBe(5)
    expect(listed.stderr).toContain(
      `${file}: its plugin function Hangs did not finish its init within 3000 ms (an await that never settles, or a loop, before it returns its hooks); opencode would wait for it forever, with no tool at all [TOOL_TIMEOUT]`,
    )
    if (engine === "node") return
    // The library's load, bounded the same way (dev's), says the same.
    const { env, home } = isolatedEnvironment()
    const { openRemoteProject } = await import("../../src/engine-client/remote-project.ts")
    const { chooseEngine } = await import("../../src/engine-client/choose-engine.ts")
    const chosen = await chooseEngine({ engine: "bun", env, directory })
    await expect(
      openRemoteProject(chosen.selection, {
        directory,
        env,
        home,
        plugins: [file],
        loadTimeoutMs: 3_000,
        console: "pipe",
      }),
    ).rejects.toMatchObject({ code: "TOOL_TIMEOUT", data: { file, init: "Hangs" } })
  },
)
