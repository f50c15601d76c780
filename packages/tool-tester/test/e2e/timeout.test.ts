import { fileURLToPath } from "node:url"
import { afterAll, expect, it } from "vitest"
import { runE2E } from "../../src/e2e/run-e2e.ts"
import { ToolTesterError } from "../../src/errors.ts"
import { leftoverFolders, leftoverProcesses, makeTempParent } from "./leftovers.ts"

const project = fileURLToPath(new URL("../fixtures/e2e-hanging-tool", import.meta.url))
const tempParent = makeTempParent()
afterAll(() => tempParent.remove())

// The call's own bound starts when the model asks for the call: opencode's start-up (slow on a busy
// machine) does not count, so a short one is reached by the hanging call and by nothing else.
it("stops a run whose tool hangs past --call-timeout with TOOL_TIMEOUT, leaving no process or folder behind", async () => {
  const error = await runE2E({
    directory: project,
    tempDirectory: tempParent.path,
    timeoutMs: 170_000,
    callTimeoutMs: 3_000,
    script: { turns: [{ calls: [{ tool: "hang" }] }] },
  }).catch((caught: unknown) => caught)
  expect(ToolTesterError.isInstance(error)).toBe(true)
  expect((error as ToolTesterError).code).toBe("TOOL_TIMEOUT")
  expect((error as ToolTesterError).message).toContain("hang (call_1)")
  expect((error as ToolTesterError).message).toContain("within 3000 ms of the model asking for it")
  expect((error as ToolTesterError).data?.["pending"]).toEqual(["call_1"])
  expect(leftoverFolders(tempParent.path)).toEqual([])
  // The tool's own `sleep` was started in a new session, outside opencode's process group.
  expect(leftoverProcesses(tempParent.path)).toEqual([])
}, 180_000)

it("stops opencode and cleans up when the caller aborts (as the CLI does on SIGINT)", async () => {
  const controller = new AbortController()
  const reason = new Error("interrupted")
  setTimeout(() => controller.abort(reason), 8_000)
  const run = runE2E({
    directory: project,
    tempDirectory: tempParent.path,
    signal: controller.signal,
    script: { turns: [{ calls: [{ tool: "hang" }] }] },
  })
  await expect(run).rejects.toBe(reason)
  expect(leftoverFolders(tempParent.path)).toEqual([])
  expect(leftoverProcesses(tempParent.path)).toEqual([])
}, 120_000)
