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
import { packageRoot } from "../helpers.ts"

function golden(set: string): { probe: ReturnType<typeof readProbeSets>[number]; run: ObservedRun } {
  const recorded = JSON.parse(
    readFileSync(path.join(packageRoot, "test", "golden", `${set}.json`), "utf8"),
  ) as ObservedSet
  return { probe: readProbeSets([set])[0]!, run: structuredClone(recorded.runs[0]!) }
}

const differences = (checks: Check[]) => checks.filter((entry) => !entry.agree)
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
