import { describe, expect, test } from "vitest"
import { failureKey } from "../../src/fuzz/classify.ts"
import { fuzzTool } from "../../src/fuzz/index.ts"
import { loadTools } from "../../src/index.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

const crash = (message: string) => ({ kind: "crash" as const, code: "TOOL_THREW", thrown: "RangeError", message })

describe("one failure, whatever values its message quotes", { timeout: 120_000 }, () => {
  test("numbers count as one value with their sign, decimals, exponent and digit groups", () => {
    // Node's words for process.exit(code) with a code that is no integer, as fuzz met them.
    const spellings = [
      "5",
      "5e-324",
      "-5e-324",
      "0.000001",
      "-1.5E+300",
      "4_294_967_296",
      "Infinity",
      "-Infinity",
      "NaN",
    ]
    const keys = new Set(
      spellings.map((value) =>
        failureKey(crash(`The value of "code" is out of range. It must be an integer. Received ${value}`)),
      ),
    )
    expect([...keys]).toHaveLength(1)
    // What is not a number still tells failures apart.
    expect(failureKey(crash("Received type string"))).not.toBe(failureKey(crash("Received 5")))
  })

  test("fuzzTool reports a crash quoting a negative, tiny or huge number once", async () => {
    const { env, home } = isolatedEnvironment()
    const project = await loadTools({
      directory: tmpProject({
        ".opencode/tools/whole.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Takes a whole number",
  args: { n: tool.schema.number() },
  async execute(args) {
    if (typeof args.n === "number" && !Number.isInteger(args.n)) throw new RangeError("It must be an integer. Received " + args.n)
    return String(args.n)
  },
})
`,
      }),
      env,
      home,
    })
    const report = await fuzzTool(project, "whole", { runs: 300, seed: 5 })
    expect(report.failures.map((failure) => failure.message)).toEqual([
      expect.stringMatching(/^It must be an integer\. Received /),
    ])
  })
})
