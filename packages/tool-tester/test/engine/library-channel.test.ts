// The library's bun engine (loadTools, runTool; the node engine loads tools in the caller's own
// process) has the same channel as the CLI's: a line a tool writes on it ends that engine with
// CHANNEL_FORGED, as the call's result, and the test process that called it goes on (it used to
// die of Node's IPC parser); the next call gets a new engine.
import { describe, expect, onTestFinished, test } from "vitest"
import type { EngineSelection } from "../../src/engine-client/choose-engine.ts"
import { openRemoteProject } from "../../src/engine-client/remote-project.ts"
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

// dev keeps a project's tools in an engine's process under both engines (openRemoteProject, as
// the inspector calls it). Bun, and so opencode, ignores fs.closeSync(0); Node closes the engine's
// stdin, and that engine can be told nothing more: it answers the call it has, and the calls after
// it go to a new engine (it used to end, killed or idle, under the next call).
describe.each([
  ["node", { name: "node" } as EngineSelection, undefined],
  [
    "bun",
    { name: "bun", location: { binary: opencode.binary ?? "", source: "option" } } as EngineSelection,
    opencode.reason,
  ],
])("a tool that closes the stdin of dev's %s engine", { timeout: 120_000 }, (_name, selection, missing) => {
  test.skipIf(missing !== undefined)("keeps its result, and the next calls are answered", async () => {
    const directory = tmpProject({
      ".opencode/tools/closes.ts": `import { closeSync } from "node:fs"\n${toolSource("closes its stdin", 'closeSync(0); return "closed"')}`,
      ".opencode/tools/fine.ts": toolSource("fine", 'return "fine"'),
    })
    const project = await openRemoteProject(selection, { directory, global: false, plugins: [], console: "pipe" })
    onTestFinished(() => closeProject(project))
    expect(await runTool(project, "closes", {}, { timeoutMs: 30_000 })).toMatchObject({
      status: "completed",
      output: "closed",
    })
    for (let call = 0; call < 2; call++)
      expect(await runTool(project, "fine", {}, { timeoutMs: 30_000 })).toMatchObject({
        status: "completed",
        output: "fine",
      })
  })
})
