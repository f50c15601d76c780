// The library's bun engine (loadTools, runTool; the node engine loads tools in the caller's own
// process) has the same channel as the CLI's: a line a tool writes on it ends that engine with
// CHANNEL_FORGED, as the call's result, and the test process that called it goes on (it used to
// die of Node's IPC parser); the next call gets a new engine.
import { describe, expect, onTestFinished, test } from "vitest"
import { closeProject, loadTools, runTool } from "../../src/index.ts"
import { opencode } from "../helpers.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "../support/tmp-project.ts"

describe("a tool that writes on the engine's channel, in the library (bun engine)", { timeout: 120_000 }, () => {
  test.skipIf(!opencode.binary)(
    "a line that is not JSON fails the call with CHANNEL_FORGED, and the next call runs in a new engine",
    async () => {
      const directory = tmpProject({
        ".opencode/tools/noise.ts": `import { writeSync } from "node:fs"\n${toolSource("writes on fd 3", 'writeSync(3, "not json\\n"); return "ok"')}`,
        ".opencode/tools/fine.ts": toolSource("fine", 'return "fine"'),
      })
      const { env, home } = isolatedEnvironment()
      const project = await loadTools({ directory, env, home, engine: "bun", engineBinary: opencode.binary! })
      onTestFinished(() => closeProject(project))
      const noisy = await runTool(project, "noise", {}, { timeoutMs: 30_000 })
      expect(noisy.status).toBe("error")
      expect(noisy.error?.code).toBe("CHANNEL_FORGED")
      const after = await runTool(project, "fine", {})
      expect(after).toMatchObject({ status: "completed", output: "fine" })
    },
  )
})
