// verify's comparison with recorded observations (the goldens of this repository, changed where a
// test says): each kind of difference is named under its behaviour, with opencode's text and
// tool-tester's. The node engine loads the probes: these sets need nothing of Bun.
import { readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import type { Check } from "../../src/verify/behaviours.ts"
import { compareRun } from "../../src/verify/compare-run.ts"
import type { ObservedRun, ObservedSet } from "../../src/verify/observed-run.ts"
import { readProbeSets } from "../../src/verify/probe-set.ts"
import { opencode, packageRoot, useTmpDir, writeFiles } from "../helpers.ts"

function golden(set: string): { probe: ReturnType<typeof readProbeSets>[number]; run: ObservedRun } {
  const recorded = JSON.parse(
    readFileSync(path.join(packageRoot, "test", "golden", `${set}.json`), "utf8"),
  ) as ObservedSet
  return { probe: readProbeSets([set])[0]!, run: structuredClone(recorded.runs[0]!) }
}

const differences = (checks: Check[]) => checks.filter((entry) => !entry.agree)

/** The naming run cut to its first call (MyTool), which opencode never finished: no request followed it. */
function unfinishedNamingRun(): { probe: ReturnType<typeof readProbeSets>[number]; run: ObservedRun } {
  const { probe, run } = golden("naming")
  run.calls = [{ ...run.calls[0]!, ran: null, result: null, status: null, title: null, metadata: null, input: null }]
  run.requests = ["title", "main"]
  return { probe, run }
}
const bound = { timeout: 120_000 }

describe.concurrent("verify's comparison of one probe run", () => {
  test("the recorded naming run agrees in every check", bound, async () => {
    const { probe, run } = golden("naming")
    const checks = await compareRun(probe, run, { engine: "node" })
    expect(new Set(checks.map((entry) => entry.behaviour))).toEqual(
      new Set(["naming", "order", "schemas", "rerouting", "results"]),
    )
    expect(differences(checks)).toEqual([])
  })

  test("a tool opencode did not offer is a naming difference, with both lists", bound, async () => {
    const { probe, run } = golden("naming")
    run.toolNames = run.toolNames!.filter((name) => name !== "jsfile")
    const [difference, ...rest] = differences(await compareRun(probe, run, { engine: "node" }))
    expect(rest.filter((entry) => entry.behaviour === "naming")).toEqual([])
    expect(difference).toMatchObject({ behaviour: "naming", set: "naming", run: "naming", subject: "tool names" })
    expect(difference!.opencode).not.toContain("jsfile")
    expect(difference!.toolTester).toContain("jsfile")
  })

  test(
    "an attachments run: each call's next request is compared, and one carried otherwise differs",
    bound,
    async () => {
      const { probe, run } = golden("attachments")
      const agreed = await compareRun(probe, run, { engine: "node" })
      expect(differences(agreed)).toEqual([])
      // Every call of the run: its part (status, title, metadata), then what the next request carried
      // of it, the result's own text among it, in the provider's form.
      const attachments = agreed.filter((entry) => entry.behaviour === "attachments")
      expect(attachments.map((entry) => entry.subject)).toEqual(
        run.calls.flatMap((call, index) => {
          const subject = `call ${index + 1} (attach ${call.called.arguments})`
          return [subject, `${subject}: the next request`]
        }),
      )
      // opencode's next request carried the image in the result instead of moving it.
      const changed = structuredClone(run)
      const carried = changed.calls.find((call) => call.called.arguments.includes('"png"'))!.carried!
      carried.messages = carried.messages.slice(0, 1)
      const [difference, ...rest] = differences(await compareRun(probe, changed, { engine: "node" }))
      expect(rest).toEqual([])
      expect(difference).toMatchObject({ behaviour: "attachments", run: "openai-compatible" })
      expect(difference!.toolTester).toContain("Attached media from tool result:")
      expect(difference!.opencode).not.toContain("Attached media from tool result:")
    },
  )

  test("the same tools in another order is an order difference", bound, async () => {
    const { probe, run } = golden("naming")
    run.toolNames = [...run.toolNames!].reverse()
    const found = differences(await compareRun(probe, run, { engine: "node" }))
    expect(found.map((entry) => [entry.behaviour, entry.subject])).toEqual([["order", "tool order"]])
  })

  test("a schema sent otherwise is a schemas difference naming the tool", bound, async () => {
    const { probe, run } = golden("naming")
    const sent = run.tools!.find((tool) => (tool["function"] as { name: string }).name === "math_add")!
    ;(sent["function"] as { description: string }).description = "Adds, as another opencode says"
    const found = differences(await compareRun(probe, run, { engine: "node" }))
    expect(found).toHaveLength(1)
    expect(found[0]).toMatchObject({ behaviour: "schemas", subject: "schema of math_add" })
    expect(found[0]!.opencode).toContain("Adds, as another opencode says")
    expect(found[0]!.toolTester).not.toContain("Adds, as another opencode says")
  })

  test("another result text is a results difference, and another tool run a rerouting one", bound, async () => {
    const { probe, run } = golden("naming")
    const [first, second] = run.calls
    first!.result = "what another opencode returned"
    second!.ran = { ...second!.ran!, name: "invalid" }
    const found = differences(await compareRun(probe, run, { engine: "node" }))
    expect(found.map((entry) => entry.behaviour).sort()).toEqual(["rerouting", "results"])
    const results = found.find((entry) => entry.behaviour === "results")!
    expect(results.subject).toMatch(/^call 1 \(MyTool /)
    expect(results.opencode).toContain("output: what another opencode returned")
    expect(found.find((entry) => entry.behaviour === "rerouting")).toMatchObject({ opencode: "invalid" })
  })

  test("another saved full output is a truncation difference", bound, async () => {
    const { probe, run } = golden("truncation")
    run.toolOutputFiles[0] = { ...run.toolOutputFiles[0]!, bytes: 1 }
    const found = differences(await compareRun(probe, run, { engine: "node" }))
    expect(found.map((entry) => [entry.behaviour, entry.subject])).toEqual([["truncation", "saved full outputs"]])
  })

  test(
    "a call opencode's session failed in is a difference where tool-tester finishes it, both texts saying so",
    bound,
    async () => {
      // What opencode 1.18.34 printed when a tool's result held a function in `metadata`
      // (test/e2e/unfinished-calls.test.ts): an error event, and the error its session processor logged.
      const { probe, run } = unfinishedNamingRun()
      run.exitCode = 1
      run.errors = [
        { source: "event", message: "The object can not be cloned." },
        {
          source: "log",
          message:
            'level=ERROR run=<id> message=process session.id=ses_1 messageID=msg_1 error="The object can not be cloned." stack="structuredClone@[native code]"',
        },
      ]
      const found = differences(await compareRun(probe, run, { engine: "node" }))
      expect(found).toEqual([
        {
          behaviour: "results",
          set: "naming",
          run: "naming",
          subject: "call 1 (MyTool {})",
          agree: false,
          opencode:
            'not finished: opencode\'s run ended with "The object can not be cloned." before the model got the result',
          toolTester: 'finished: status: completed\ntitle: ""\nmetadata: {"truncated":false}\noutput: MyTool ran',
        },
      ])
    },
  )

  test(
    "a result opencode cannot copy agrees only where opencode's run ended with the error tool-tester predicts",
    bound,
    async () => {
      // A probe of one tool whose metadata holds a function, and the run opencode 1.18.34 made of it
      // (test/e2e/unfinished-calls.test.ts): its session failed, exit code 1, before the model got the result.
      const directory = useTmpDir()
      writeFiles(directory, {
        ".opencode/tools/clone_fn.ts":
          'export default { description: "metadata holding a function", args: {}, async execute() { return { output: "x", metadata: { f: () => 1 } } } }\n',
      })
      const probe = { set: "copy", directory, description: "", behaviour: "results" as const, runs: [] }
      const run: ObservedRun = {
        ...golden("naming").run,
        name: "copy",
        requests: ["title", "main"],
        calls: [
          {
            turn: 0,
            called: { name: "clone_fn", arguments: "{}" },
            ran: null,
            result: null,
            status: null,
            title: null,
            metadata: null,
            error: null,
            input: null,
          },
        ],
        errors: [{ source: "event", message: "The object can not be cloned." }],
        exitCode: 1,
      }
      const callCheck = async () =>
        (await compareRun(probe, run, { engine: "node" })).find((entry) => entry.subject.startsWith("call 1"))
      expect(await callCheck()).toEqual({
        behaviour: "results",
        set: "copy",
        run: "copy",
        subject: "call 1 (clone_fn {})",
        agree: true,
      })
      run.errors = [{ source: "event", message: "JSON.stringify cannot serialize BigInt." }]
      expect(await callCheck()).toMatchObject({
        agree: false,
        opencode:
          'not finished: opencode\'s run ended with "JSON.stringify cannot serialize BigInt." before the model got the result',
        toolTester:
          'not finished: opencode\'s run ended with "The object can not be cloned." before the model got the result',
      })
    },
  )

  test(
    "in a parallel batch one call of which ends opencode's run, the others are cut off on both sides, not differences",
    bound,
    async () => {
      // The copy-failures probe's batch run as opencode 1.18.34 made it: quick_ok, meta_function
      // (metadata holding a function) and wait_ok in one step; the run ended with "The object can not
      // be cloned." before any result reached the model, quick_ok's part completed, wait_ok's not.
      const recorded = JSON.parse(
        readFileSync(path.join(packageRoot, "test", "golden", "copy-failures.json"), "utf8"),
      ) as ObservedSet
      const probe = readProbeSets(["copy-failures"])[0]!
      const run = structuredClone(recorded.runs.find((entry) => entry.name === "batch")!)
      expect(run.calls.map((call) => [call.turn, call.called.name, call.ran, call.status])).toEqual([
        [0, "quick_ok", null, "completed"],
        [0, "meta_function", null, null],
        [0, "wait_ok", null, null],
      ])
      const cutOff =
        "not finished: opencode's run ended in another call of the same step, before the model got the result"
      const calls = async () =>
        (await compareRun(probe, run, { engine: "node" })).filter((entry) => entry.subject.startsWith("call "))
      expect(await calls()).toEqual([
        { behaviour: "results", set: "copy-failures", run: "batch", subject: "call 1 (quick_ok {})", agree: true },
        { behaviour: "results", set: "copy-failures", run: "batch", subject: "call 2 (meta_function {})", agree: true },
        { behaviour: "results", set: "copy-failures", run: "batch", subject: "call 3 (wait_ok {})", agree: true },
      ])
      // A part opencode finished before its run ended is still compared with tool-tester's.
      run.calls[0]!.title = "another title"
      expect(differences(await calls())).toEqual([
        expect.objectContaining({
          subject: "call 1 (quick_ok {})",
          opencode: `${cutOff}\nits tool part: status: completed\ntitle: "another title"\nmetadata: {"quick":true,"truncated":false}`,
          toolTester: `${cutOff}\nits tool part: status: completed\ntitle: "quick title"\nmetadata: {"quick":true,"truncated":false}`,
        }),
      ])
      // The run ending otherwise is one difference, on the call tool-tester predicts ends it.
      run.calls[0]!.title = "quick title"
      run.errors = [{ source: "event", message: "JSON.stringify cannot serialize BigInt." }]
      expect(differences(await calls()).map((entry) => entry.subject)).toEqual(["call 2 (meta_function {})"])
    },
  )

  test(
    "a call opencode ended in with no error of its own is a difference where tool-tester finishes it",
    bound,
    async () => {
      const { probe, run } = unfinishedNamingRun()
      run.exitCode = 0
      const found = differences(await compareRun(probe, run, { engine: "node" }))
      expect(found).toHaveLength(1)
      expect(found[0]).toMatchObject({
        subject: "call 1 (MyTool {})",
        opencode: "not finished: the process ended with exit code 0 before the model got the result",
        toolTester: expect.stringMatching(/^finished: status: completed\n/),
      })
    },
  )

  test("a call opencode hung in, in a run not declared mayHang, is a difference", bound, async () => {
    const { probe, run } = unfinishedNamingRun()
    run.hung = true
    run.exitCode = null
    const found = differences(await compareRun(probe, run, { engine: "node" }))
    expect(found.map((entry) => [entry.subject, entry.opencode])).toEqual([
      ["call 1 (MyTool {})", "not finished: opencode hung in the call and was stopped at its bound"],
    ])
  })

  test.skipIf(opencode.binary === undefined)(
    "a tool's process.exit(3) ends opencode and tool-tester's engine alike: the recorded run agrees",
    bound,
    async () => {
      // The escaped-errors probe's exit_three run: opencode exited 3 in the call; tool-tester's bun
      // engine (the node engine would run the tool in this process) ends with TOOL_EXITED, code 3.
      const recorded = JSON.parse(
        readFileSync(path.join(packageRoot, "test", "golden", "escaped-errors.json"), "utf8"),
      ) as ObservedSet
      const probe = readProbeSets(["escaped-errors"])[0]!
      const run = structuredClone(recorded.runs.find((entry) => entry.name === "exit_three")!)
      const options = { engine: "bun" as const, engineBinary: opencode.binary! }
      expect(differences(await compareRun(probe, run, options))).toEqual([])
      run.exitCode = 1
      const found = differences(await compareRun(probe, run, options))
      expect(found.map((entry) => [entry.opencode, entry.toolTester])).toEqual([
        [
          "not finished: the process ended with exit code 1 before the model got the result",
          "not finished: the process ended with exit code 3 before the model got the result",
        ],
      ])
    },
  )

  test("an opencode that sent no tool list where tool-tester offers one is a discovery difference", bound, async () => {
    const { probe, run } = golden("naming")
    run.toolNames = null
    run.tools = null
    run.exitCode = 1
    run.errors = [{ source: "stderr", message: "\u001b[91m\u001b[1mError: \u001b[0msomething in this opencode broke" }]
    const found = differences(await compareRun(probe, run, { engine: "node" }))
    expect(found).toHaveLength(1)
    expect(found[0]).toMatchObject({
      behaviour: "discovery",
      subject: "the tool list",
      opencode: "no tool list sent (opencode exited 1: Error: something in this opencode broke)",
    })
    expect(found[0]!.toolTester).toMatch(/^offers .*math_add/)
  })
})
