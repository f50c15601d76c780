// What a tool prints under the node engine reaches the pipe the CLI counts: Node wrote to the pipe in
// the background, so output still queued was lost (a gigabyte at once failed with ENOBUFS after its
// first megabyte, and a process.exit right after printing dropped the queue), and the CLI reported
// only what had arrived. The count must be what the tool printed.
import { expect, test } from "vitest"
import { runCli } from "../helpers.ts"
import { tmpProject, toolSource } from "../support/tmp-project.ts"

const PRINTED = 4 * 1024 * 1024
const KEPT = 64 * 1024

test("the node engine's stdout count is what the tool printed, also when it exits right after", {
  timeout: 120_000,
}, async () => {
  const directory = tmpProject({
    ".opencode/tools/loud.ts": toolSource("loud", `process.stdout.write("x".repeat(${PRINTED})); process.exit(3)`),
  })
  const result = await runCli(["run", "loud", "--engine", "node", "--json"], { cwd: directory })
  const report = JSON.parse(result.stdout) as {
    error?: { code: string }
    console: { stdout: string; droppedBytes: { stdout: number } }
  }
  expect(report.error?.code).toBe("TOOL_EXITED")
  expect(report.console.stdout.length).toBe(KEPT)
  expect(report.console.droppedBytes.stdout).toBe(PRINTED - KEPT)
})
