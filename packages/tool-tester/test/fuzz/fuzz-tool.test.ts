import { describe, expect, test, vi } from "vitest"
import { fuzzTool } from "../../src/fuzz/index.ts"
import { loadTools } from "../../src/index.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

async function project(source: string) {
  const { env, home } = isolatedEnvironment()
  return loadTools({ directory: tmpProject({ ".opencode/tools/sample.ts": source }), env, home })
}

// A crash planted where models go wrong: `city` missing or not a string.
const fragile = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Weather",
  args: { city: tool.schema.string(), days: tool.schema.number().int().min(1).max(7).optional() },
  async execute(args) { return args.city.toUpperCase() + " for " + (args.days ?? 1) + " days" },
})
`

const robust = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Weather",
  args: { city: tool.schema.string(), days: tool.schema.number().int().min(1).max(7).optional() },
  async execute(args) {
    if (typeof args.city !== "string" || args.city.trim() === "") throw new Error("city must be a non-empty string")
    const days = typeof args.days === "number" ? args.days : 1
    return args.city.slice(0, 100) + " for " + days + " days"
  },
})
`

describe("fuzzTool", { timeout: 120_000 }, () => {
  test("finds the planted crash within 200 runs and shrinks it to the minimal object", async () => {
    const report = await fuzzTool(await project(fragile), "sample", { runs: 200, seed: 7 })
    expect(report.failures.length).toBeGreaterThan(0)
    expect(report.failures.every((failure) => failure.kind === "crash" && failure.thrown === "TypeError")).toBe(true)
    expect(report.failures.map((failure) => failure.args)).toContainEqual({})
    const missing = report.failures.find((failure) => JSON.stringify(failure.args) === "{}")
    expect(missing?.output).toMatch(/undefined/)
    expect(report).toMatchObject({ tool: "sample", seed: 7 })
  })

  test("finds nothing in a tool that checks its arguments and rejects bad ones on purpose", async () => {
    const report = await fuzzTool(await project(robust), "sample", { runs: 300, seed: 11 })
    expect(report.failures).toEqual([])
    expect(report.calls).toBe(300)
  })

  test("the same seed gives the same report", async () => {
    const loaded = await project(fragile)
    const first = await fuzzTool(loaded, "sample", { runs: 100, seed: 1234 })
    const second = await fuzzTool(loaded, "sample", { runs: 100, seed: 1234 })
    expect(second).toEqual(first)
  })

  test("a call that hangs is a timeout failure", async () => {
    const hangs = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Waits",
  args: { count: tool.schema.number() },
  async execute(args) {
    if (typeof args.count !== "number") await new Promise(() => {})
    return "counted " + args.count
  },
})
`
    const report = await fuzzTool(await project(hangs), "sample", { runs: 50, seed: 3, timeoutMs: 300 })
    expect(report.failures.map((failure) => [failure.kind, failure.code])).toContainEqual(["timeout", "TOOL_TIMEOUT"])
  })

  test("an error that escaped a call is a failure, with the arguments that caused it", async () => {
    // Refuses a city that is not a string on purpose (not a failure), but leaves the lookup of an
    // empty one to reject: opencode prints that and keeps "weather in ", a latent bug.
    const leaks = `import { tool } from "@opencode-ai/plugin"
async function lookup(city: string) { throw new Error("no station for an empty city") }
export default tool({
  description: "Weather",
  args: { city: tool.schema.string() },
  async execute(args) {
    if (typeof args.city !== "string") throw new Error("city must be a string")
    if (args.city.trim() === "") lookup(args.city)
    return "weather in " + args.city.slice(0, 50)
  },
})
`
    // Printed on stderr at each escape, as opencode prints it: under the bun engine that reaches this
    // process's console.error (relayed-console.ts).
    vi.spyOn(console, "error").mockImplementation(() => {})
    const report = await fuzzTool(await project(leaks), "sample", { runs: 200, seed: 5 })
    expect(report.failures).toHaveLength(1)
    const [failure] = report.failures
    expect(failure).toMatchObject({ kind: "escaped", code: "ESCAPED_ERROR", args: { city: "" } })
    expect(failure?.message).toBe(
      "Error: no station for an empty city escaped the call (a promise the tool left to reject); opencode prints it on stderr and keeps the call's result: await it or add a .catch",
    )
    // The call itself completed: the model read what execute returned.
    expect(failure?.output).toBe("weather in ")
  })

  test("a name, runs or seed it cannot use is refused as USAGE, so a reported seed always replays", async () => {
    const loaded = await project(robust)
    const refused = [
      ["name", undefined, {}, "fuzzTool's name must be the tool's name, a string, not undefined"],
      ["runs", "sample", { runs: "5" }, 'runs must be a whole number above 0, not "5"'],
      // NaN would come back as report.seed null, which replays nothing.
      ["seed", "sample", { seed: Number.NaN }, "seed must be a number, such as report.seed, not NaN"],
      ["seed", "sample", { seed: "7" }, 'seed must be a number, such as report.seed, not "7"'],
    ] as const
    for (const [option, name, options, message] of refused) {
      await expect(fuzzTool(loaded, name as never, options as never), message).rejects.toMatchObject({
        code: "USAGE",
        message,
        data: { option },
      })
    }
  })

  test("an unknown tool name fails with TOOL_NOT_FOUND naming the tools there are", async () => {
    await expect(fuzzTool(await project(robust), "samples")).rejects.toMatchObject({
      code: "TOOL_NOT_FOUND",
      message: 'no custom or plugin tool is named samples: fuzz one of sample; did you mean "sample"?',
    })
    // A built-in's name is not a typo: said as such.
    await expect(fuzzTool(await project(robust), "read")).rejects.toMatchObject({
      code: "TOOL_NOT_FOUND",
      message:
        "read is one of opencode's built-in tools, which check their own arguments; fuzz calls custom and plugin tools: fuzz one of sample",
    })
  })
})

describe("a tool that tampers with the engine's built-ins", { timeout: 120_000 }, () => {
  test("ends the search at that call: TOOL_TAMPERED, and no call after it", async () => {
    const tampers = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Tampers",
  args: { city: tool.schema.string() },
  async execute(args) {
    Object.defineProperty(Array.prototype, "tampered", { get: () => true, configurable: true })
    return args.city
  },
})
`
    const report = await fuzzTool(await project(tampers), "sample", { runs: 20, seed: 1 })
    expect(report.calls).toBe(1)
    expect(report.failures).toMatchObject([{ code: "TOOL_TAMPERED" }])
    expect(Reflect.ownKeys(Array.prototype)).not.toContain("tampered")
  })
})
