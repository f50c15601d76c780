import { readFileSync } from "node:fs"
import path from "node:path"
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

// Ignores its signal on its first call ever (a marker file outlives its engine), then takes 300 ms.
const deafOnce = `import { appendFileSync, existsSync, writeFileSync } from "node:fs"
import path from "node:path"
import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Waits",
  args: { count: tool.schema.number() },
  async execute(args, context) {
    const marker = path.join(context.directory, "deaf-once")
    if (!existsSync(marker)) {
      writeFileSync(marker, "")
      await new Promise(() => {})
    }
    await new Promise((resolve) => setTimeout(resolve, 300))
    appendFileSync(path.join(context.directory, "completed"), JSON.stringify(args) + "\\n")
    return "counted"
  },
})
`

test("under the bun engine, the call the end of a deaf tool's engine interrupts is made again, not counted as passed", {
  timeout: 120_000,
}, async () => {
  const { env, home } = isolatedEnvironment()
  const directory = tmpProject({ ".opencode/tools/sample.ts": deafOnce })
  const project = await loadTools({ directory, env, home, engine: "bun" })
  // The first call times out at 1 s, its tool goes on, and its engine is ended 1 s later: in the
  // middle of one of the 300 ms calls after it.
  const report = await fuzzTool(project, "sample", { runs: 10, seed: 3, timeoutMs: 1_000 })
  expect(report.failures.map((failure) => failure.kind)).toEqual(["timeout"])
  const completed = readFileSync(path.join(directory, "completed"), "utf8").trim().split("\n")
  // Every call but the timed-out one ran to its end. The call the engine's end interrupted may
  // have written its line a moment before its engine ended, its result lost with the engine (seen
  // on a loaded machine): made again, it writes the same line twice, and only that one may.
  expect(new Set(completed).size).toBe(report.calls - 1)
  expect(completed.length - new Set(completed).size).toBeLessThanOrEqual(1)
})

// Answers at once on its first two calls; the third waits for its context.abort, and writes it down.
const stopsOnThird = `import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Waits",
  args: { count: tool.schema.number() },
  async execute(args, context) {
    const counter = path.join(context.directory, "calls")
    const made = (existsSync(counter) ? Number(readFileSync(counter, "utf8")) : 0) + 1
    writeFileSync(counter, String(made))
    if (made < 3) return "counted"
    await new Promise((resolve) => {
      if (context.abort.aborted) resolve(undefined)
      else context.abort.addEventListener("abort", resolve)
    })
    appendFileSync(path.join(context.directory, "stopped"), "stopped\\n")
    return "stopped"
  },
})
`

test("an aborted signal stops the call in flight and every call after it, and rejects with its reason", {
  timeout: 120_000,
}, async () => {
  const { env, home } = isolatedEnvironment()
  const directory = tmpProject({ ".opencode/tools/sample.ts": stopsOnThird })
  const project = await loadTools({ directory, env, home })
  const controller = new AbortController()
  const reason = new Error("the test timed out")
  let calls = 0
  const fuzzing = fuzzTool(project, "sample", {
    runs: 50,
    seed: 1,
    signal: controller.signal,
    onCall: () => {
      if (++calls === 3) setTimeout(() => controller.abort(reason), 50)
    },
  })
  await expect(fuzzing).rejects.toBe(reason)
  expect(calls).toBe(3)
  expect(readFileSync(path.join(directory, "stopped"), "utf8")).toBe("stopped\n")
  // Already aborted: no call is made at all.
  await expect(fuzzTool(project, "sample", { signal: controller.signal, onCall: () => calls++ })).rejects.toBe(reason)
  expect(calls).toBe(3)
  await expect(fuzzTool(project, "sample", { signal: "stop" as never })).rejects.toMatchObject({
    code: "USAGE",
    data: { option: "signal" },
  })
})
