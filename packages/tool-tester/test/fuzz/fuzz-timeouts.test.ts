import { expect, test } from "vitest"
import { fuzzTool } from "../../src/fuzz/index.ts"
import { loadTools } from "../../src/index.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

// Never settles for a count that is not a number; crashes on a negative one.
const slow = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Waits",
  args: { count: tool.schema.number() },
  async execute(args) {
    if (typeof args.count !== "number") await new Promise(() => {})
    if (args.count < 0) return null.toFixed()
    return "counted " + args.count
  },
})
`

test("a slow call is a timeout failure with the arguments it was called with, made once, and the search goes on", {
  timeout: 120_000,
}, async () => {
  const { env, home } = isolatedEnvironment()
  const project = await loadTools({ directory: tmpProject({ ".opencode/tools/sample.ts": slow }), env, home })
  const calls: string[] = []
  const report = await fuzzTool(project, "sample", {
    runs: 60,
    seed: 5,
    timeoutMs: 300,
    onCall: (args) => calls.push(JSON.stringify(args)),
  })
  const timeouts = report.failures.filter((failure) => failure.kind === "timeout")
  expect(timeouts).toHaveLength(1)
  expect(typeof (timeouts[0]!.args as { count?: unknown }).count).not.toBe("number")
  // Found after the first slow call: the search did not stop there.
  expect(report.failures.some((failure) => failure.kind === "crash" && failure.thrown === "TypeError")).toBe(true)
  const slowCalls = calls.filter((args) => typeof (JSON.parse(args) as { count?: unknown }).count !== "number")
  expect(new Set(slowCalls).size).toBe(slowCalls.length)
})
