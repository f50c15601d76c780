// Under the node engine a call's process.exit from a timer it set (runtime/exit-in-call.ts) is
// TOOL_EXITED, and the throw that stops the tool there is tool-tester's own: it must not escape
// (printed on stderr as the tool's uncaught error, and taken by a test runner for its own). An error
// the tool throws afterwards is still its own and still escapes, as before. (`tool-tester run
// --engine node` runs tools in an engine process of its own, whose exit is the TOOL_EXITED.)
import path from "node:path"
import { expect, onTestFinished, test } from "vitest"
import type { ToolProject } from "../../src/index.ts"
import { closeProject, loadTools, runTool } from "../../src/index.ts"
import { packageRoot } from "../helpers.ts"
import { isolatedEnvironment } from "../support/tmp-project.ts"

const fixture = path.join(packageRoot, "test", "fixtures", "exit-in-timer")
const exitedWith = (code: number) =>
  `the tool ended its process with process.exit(${code}); under opencode that stops opencode itself: throw an Error instead`

/** What reaches this process's uncaughtException and unhandledRejection listeners until the test ends. */
function escapes(): string[] {
  const seen: string[] = []
  const listener = (error: unknown) => seen.push(error instanceof Error ? error.message : String(error))
  // A listener of the test's own also keeps vitest from taking a tool's real escape for the file's.
  process.on("uncaughtException", listener)
  process.on("unhandledRejection", listener)
  onTestFinished(() => {
    process.off("uncaughtException", listener)
    process.off("unhandledRejection", listener)
  })
  return seen
}

test("runTool (node engine): a timer's process.exit is TOOL_EXITED, its stop does not escape, a later throw does", async () => {
  const { env, home } = isolatedEnvironment()
  const project: ToolProject = await loadTools({ directory: fixture, env, home, engine: "node" })
  onTestFinished(() => closeProject(project))
  const seen = escapes()
  const emit = process.emit
  for (const [tool, code] of [
    ["exit_in_timer", 3],
    ["exit_in_async_timer", 5],
    ["exit_then_throw", 3],
  ] as const) {
    const result = await runTool(project, tool, {})
    expect(result, tool).toMatchObject({ status: "error", error: { code: "TOOL_EXITED", message: exitedWith(code) } })
    // opencode ended at the process.exit: nothing after it is the call's, as under the engines.
    expect(result.escapedErrors, tool).toBeUndefined()
  }
  // The call waited for the timer it left, so the tool's own throw after the exit has escaped by now.
  expect(seen).toEqual(["thrown by the tool after its process.exit"])
  // process.emit is the caller's again once no call runs.
  expect(process.emit).toBe(emit)
})
