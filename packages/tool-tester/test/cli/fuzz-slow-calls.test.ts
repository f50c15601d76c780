import { describe, expect, test } from "vitest"
import { shellWord } from "../../src/_shell-quote.ts"
import { runCli } from "../helpers.ts"
import { tmpProject } from "../support/tmp-project.ts"

type FuzzJson = {
  calls: number
  replay: string
  stopped?: string
  failures: Array<{ kind: string; code: string; thrown?: string; message: string; args: unknown; rerun: string }>
}

// A call with n = 1 keeps the engine busy for good, n = 2 ends its process, a missing n crashes:
// one slow input must not hide the others, and each is reported with its own arguments.
const count = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Count",
  args: { n: tool.schema.number().int() },
  async execute(args) {
    if (args.n === 1) while (true) {}
    if (args.n === 2) process.exit(9)
    return "n=" + args.n.toFixed(0)
  },
})
`

/** The words of a printed replay line after the bin (`npx @opencode-ai/tool-tester`). */
function replayWords(replay: string): string[] {
  return replay.replace(/^npx @opencode-ai\/tool-tester /, "").split(" ")
}

describe("fuzz past a call that stops the engine", { timeout: 180_000 }, () => {
  test.each(["bun", "node"])(
    "reports the crash found first, the call that hung and the call that exited, each with its arguments, and goes on (%s engine)",
    async (engine) => {
      const directory = tmpProject({ ".opencode/tools/count.ts": count })
      const result = await runCli(
        [
          "fuzz",
          "count",
          "--seed",
          "1",
          "--runs",
          "100",
          "--timeout",
          "2000",
          "--no-global",
          "--engine",
          engine,
          "--json",
        ],
        { cwd: directory },
      )
      expect(result.exitCode, result.stderr).toBe(4)
      const report = JSON.parse(result.stdout) as FuzzJson
      expect(report.stopped).toBeUndefined()
      const byKind = (kind: string) => report.failures.filter((failure) => failure.kind === kind)
      expect(byKind("crash").map((failure) => failure.args)).toContainEqual({})
      expect(byKind("timeout")).toEqual([
        {
          kind: "timeout",
          code: "TOOL_TIMEOUT",
          message:
            "the call kept the engine busy past 2000 ms and its abort signal never ran (a busy loop, or work that grows with an argument?); the engine was restarted",
          args: { n: 1 },
          output: "",
          // The one call again, as printed: with the bound it was called with.
          rerun: `npx @opencode-ai/tool-tester run count --no-global --engine ${engine} --args ${shellWord('{"n":1}')} --timeout 2000`,
        },
      ])
      expect(byKind("exit")).toEqual([
        {
          kind: "exit",
          code: "TOOL_EXITED",
          message:
            "the call ended the engine's process (process.exit or a crash: exit code 9); in opencode this ends opencode itself",
          args: { n: 2 },
          output: "",
          rerun: `npx @opencode-ai/tool-tester run count --no-global --engine ${engine} --args ${shellWord('{"n":2}')}`,
        },
      ])
    },
  )

  test("the printed replay line keeps --timeout and, pasted, reproduces the run with the hung call's arguments", async () => {
    const directory = tmpProject({ ".opencode/tools/count.ts": count })
    const first = await runCli(
      [
        "fuzz",
        "count",
        "--seed",
        "1",
        "--runs",
        "100",
        "--timeout",
        "2000",
        "--no-global",
        "--engine",
        "node",
        "--json",
      ],
      { cwd: directory },
    )
    const report = JSON.parse(first.stdout) as FuzzJson
    expect(report.replay).toBe(
      "npx @opencode-ai/tool-tester fuzz count --no-global --engine node --seed 1 --runs 100 --timeout 2000",
    )
    const again = await runCli(replayWords(report.replay), { cwd: directory })
    expect(again.exitCode, again.stderr).toBe(4)
    expect(again.stdout).toContain(`${report.failures.length} failures found`)
    expect(again.stdout).toMatch(/\d\. timeout {2}TOOL_TIMEOUT\n {3}args {5}\{"n":1\}/)
    expect(again.stdout).toMatch(/\d\. exit {2}TOOL_EXITED\n {3}args {5}\{"n":2\}/)
    expect(again.stdout).toContain(`replay: ${report.replay}`)
    // Each failure's rerun line, pasted, calls the tool once with those arguments: the hung one times out.
    const hung = report.failures.find((failure) => failure.kind === "timeout")!
    expect(again.stdout).toContain(`   rerun    ${hung.rerun}\n`)
    const rerun = await runCli(replayWords(hung.rerun.replace(shellWord('{"n":1}'), '{"n":1}')), { cwd: directory })
    expect(rerun.exitCode, rerun.stderr).toBe(5)
    expect(rerun.stderr).toContain("TOOL_TIMEOUT")
  })

  test("when calls keep stopping the engine, fuzz gives up but still reports what it found, exit 4", async () => {
    // Every n above 10 hangs: more hung calls than restarts.
    const hangsOften = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Count",
  args: { n: tool.schema.number().int() },
  async execute(args) {
    if (args.n > 10) while (true) {}
    return "n=" + args.n.toFixed(0)
  },
})
`
    const directory = tmpProject({ ".opencode/tools/count.ts": hangsOften })
    const result = await runCli(
      [
        "fuzz",
        "count",
        "--seed",
        "1",
        "--runs",
        "200",
        "--timeout",
        "300",
        "--no-global",
        "--engine",
        "node",
        "--json",
      ],
      { cwd: directory },
    )
    expect(result.exitCode, result.stderr).toBe(4)
    const report = JSON.parse(result.stdout) as FuzzJson
    expect(report.stopped).toMatch(
      /^calls kept the engine busy or ended it 6 times, so fuzzing stopped after \d+ calls$/,
    )
    expect(report.failures.map((failure) => failure.kind)).toEqual(expect.arrayContaining(["crash", "timeout"]))
    const hung = report.failures.filter((failure) => failure.kind === "timeout").map((failure) => failure.args)
    expect(hung).toEqual([{ n: expect.any(Number) }])
    expect((hung[0] as { n: number }).n).toBeGreaterThan(10)
  })
})

// A call that writes on the engine's channel (descriptor 3) or closes it leaves the engine unable
// to answer: like one that ends the process, it is a failure of kind exit with its arguments, and
// the search goes on in a new engine (docs/errors.md#channel_forged).
const breaksChannel = `import { writeSync, closeSync } from "node:fs"
import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Count",
  args: { n: tool.schema.number().int() },
  async execute(args) {
    if (args.n === 1) writeSync(3, "garbage\\n")
    if (args.n === 2) closeSync(3)
    return "n=" + args.n.toFixed(0)
  },
})
`

describe("fuzz past a call that breaks the engine's channel", { timeout: 180_000 }, () => {
  test.each(["bun", "node"])(
    "the calls that forged or closed it are reported with their arguments, with the rest of the report (%s engine)",
    async (engine) => {
      const directory = tmpProject({ ".opencode/tools/count.ts": breaksChannel })
      const result = await runCli(
        ["fuzz", "count", "--seed", "1", "--runs", "100", "--no-global", "--engine", engine, "--json"],
        { cwd: directory },
      )
      expect(result.exitCode, result.stderr).toBe(4)
      const report = JSON.parse(result.stdout) as FuzzJson
      expect(report.stopped).toBeUndefined()
      const exits = report.failures
        .filter((failure) => failure.kind === "exit")
        .sort((left, right) => left.code.localeCompare(right.code))
      expect(exits).toEqual([
        expect.objectContaining({ code: "CHANNEL_CLOSED", args: { n: 2 } }),
        expect.objectContaining({ code: "CHANNEL_FORGED", args: { n: 1 } }),
      ])
      for (const failure of exits) expect(failure.message).toMatch(/; the engine was restarted$/)
    },
  )
})
