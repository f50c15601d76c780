// An abort that arrives while a tool runs synchronous code is seen only once that code has ended:
// the timer of `timeoutMs` cannot fire, and neither can a caller's signal (a timer too) nor, under
// the bun engine, the abort message the engine has yet to read. When that code ends with the tool
// returning, the tool has answered before its abort was seen, and opencode records what it returned
// (`completed`: docs/opencode-contract.md#abort). So does tool-tester: the result is the tool's,
// not TOOL_TIMEOUT nor INTERRUPTED, and the tool found its context.abort not fired when it returned.
// Under the bun engine the library's side has bounds of its own (1 s past timeoutMs, 1 s after an
// abort): an answer that arrived within them but was read after them (this process was busy) is
// kept too. It used to end the call TOOL_TIMEOUT or INTERRUPTED, and its engine with it.
import { describe, expect, onTestFinished, test } from "vitest"
import { closeProject, runTool } from "../src/index.ts"
import { opencode } from "./helpers.ts"
import { loadedUnder, toolSource } from "./support/tmp-project.ts"

const busy = toolSource(
  "busy",
  `const end = Date.now() + args.ms
  while (Date.now() < end) {}
  return "returned, context.abort fired: " + context.abort.aborted`,
  "{ ms: tool.schema.number() }",
)
const answer = { status: "completed", output: "returned, context.abort fired: false" }

describe("a tool that returns after a synchronous stretch past its abort keeps its result", () => {
  for (const engine of ["node", "bun"] as const) {
    const skip = engine === "bun" ? opencode.reason : undefined
    test.skipIf(skip !== undefined)(`under the ${engine} engine${skip ? ` (${skip})` : ""}`, async () => {
      const { project } = await loadedUnder(engine, { ".opencode/tools/busy.ts": busy })
      onTestFinished(() => closeProject(project))
      // Busy for 300 ms, well within the 1 s the bun engine's Node side gives a tool past its bound.
      expect(await runTool(project, "busy", { ms: 300 }, { timeoutMs: 100 })).toMatchObject(answer)
      expect(await runTool(project, "busy", { ms: 300 }, { signal: AbortSignal.timeout(100) })).toMatchObject(answer)
    })
  }
})

test.skipIf(opencode.binary === undefined)(
  `under the bun engine, an answer that arrived within the library's bounds but was read after them is kept${opencode.reason ? ` (${opencode.reason})` : ""}`,
  async () => {
    const { project } = await loadedUnder("bun", {
      ".opencode/tools/quick.ts": toolSource("quick", 'return "answered"'),
    })
    onTestFinished(() => closeProject(project))
    // Bounds of 1001 ms (timeoutMs + 1 s) and 1000 ms (1 s after the abort), from when each call is sent.
    const timed = runTool(project, "quick", {}, { timeoutMs: 1 })
    const aborted = runTool(project, "quick", {}, { signal: AbortSignal.abort() })
    // Sent by now; this process then sleeps past both bounds while the engine answers, as a busy
    // test's synchronous work would hold it. When it wakes, both bounds and both answers are due.
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_500)
        resolve()
      }),
    )
    expect(await timed).toMatchObject({ status: "completed", output: "answered" })
    expect(await aborted).toMatchObject({ status: "completed", output: "answered" })
  },
)
