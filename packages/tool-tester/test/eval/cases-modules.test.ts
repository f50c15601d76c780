import path from "node:path"
import { describe, expect, test } from "vitest"
import { gradeTrial, loadEvalCases } from "../../src/eval-cases/index.ts"
import type { EvalTrial } from "../../src/eval-cases/types.ts"
import { useTmpDir, writeFiles } from "../helpers.ts"

const file = (name: string) => path.join(".opencode", "evals", name)

function trialCalling(tool: string, args: unknown): EvalTrial {
  return {
    case: "c",
    model: "mock/model",
    run: 1,
    durationMs: 1,
    turns: [{ prompt: "p", calls: [{ tool, args, status: "completed" }], text: "" }],
  }
}

// Case files in TypeScript load without a build step or Node module hooks (the loader tool files use).
describe("loadEvalCases with TS and JS case files", () => {
  test("loads a TypeScript case file with a RegExp and a predicate, and grades with them", async () => {
    const directory = useTmpDir("tool-tester-evals-")
    writeFiles(directory, {
      [file("weather.ts")]: `import { cities } from "./_cities.ts"

interface Case { name: string; prompt: string; expect?: unknown }

const isKnownCity = (value: unknown): boolean => typeof value === "string" && cities.includes(value)

const cases: Case[] = [
  {
    name: "paris by pattern",
    prompt: "What is the weather in Paris?",
    expect: { calls: [{ tool: "weather", args: { city: /^par/i } }] },
  },
  {
    name: "known city",
    prompt: "Weather in Rome?",
    expect: { calls: [{ tool: "weather", args: { city: isKnownCity } }], notCalled: ["*"] },
  },
]
export default cases
`,
      // A helper module: named with "_", it is not read as a case file.
      [file("_cities.ts")]: `export const cities: string[] = ["Paris", "Rome"]\n`,
    })
    const { cases, problems } = await loadEvalCases(directory)
    expect(problems).toEqual([])
    expect(cases.map((entry) => entry.name)).toEqual(["paris by pattern", "known city"])
    expect(cases[0]!.source).toEqual({ file: file("weather.ts"), line: 9 })
    expect(cases[1]!.source).toEqual({ file: file("weather.ts"), line: 14 })
    const [byPattern, known] = cases as [(typeof cases)[0], (typeof cases)[0]]
    expect(gradeTrial(byPattern, trialCalling("weather", { city: "PARIS" })).pass).toBe(true)
    expect(gradeTrial(byPattern, trialCalling("weather", { city: "Lyon" })).pass).toBe(false)
    expect(gradeTrial(known, trialCalling("weather", { city: "Rome" })).pass).toBe(true)
    expect(gradeTrial(known, trialCalling("weather", { city: "Oslo" })).reasons).toEqual([
      'expected weather({city: isKnownCity}); called weather({city: "Oslo"}) (city: expected isKnownCity, got "Oslo")',
    ])
  })

  test("loads .mts, .js and .mjs case files, and { cases } as a default export", async () => {
    const directory = useTmpDir("tool-tester-evals-")
    writeFiles(directory, {
      [file("a.mts")]: `export default [{ name: "a", prompt: "p" }] as const\n`,
      [file("b.js")]:
        `export default [{ name: "b", prompt: "p", expect: { calls: [{ tool: "x", args: (args) => args.n === 1 }] } }]\n`,
      [file("c.mjs")]: `export default { cases: [{ name: 'c', prompt: "p" }] }\n`,
      [file("types.d.ts")]: `export {}\n`,
    })
    const { cases, problems } = await loadEvalCases(directory)
    expect(problems).toEqual([])
    expect(cases.map((entry) => [entry.name, entry.source?.line])).toEqual([
      ["a", 1],
      ["b", 1],
      ["c", 1],
    ])
    expect(gradeTrial(cases[1]!, trialCalling("x", { n: 1 })).pass).toBe(true)
  })

  test("a module that does not import, or exports no cases, is a problem; other files still load", async () => {
    const directory = useTmpDir("tool-tester-evals-")
    writeFiles(directory, {
      [file("broken.ts")]: `export default [{ name: "x", prompt: }]\n`,
      [file("none.ts")]: `export const cases = []\n`,
      [file("object.js")]: `export default { name: "x" }\n`,
      [file("throws.mjs")]: `throw new Error("no network at import time")\n`,
      [file("good.json")]: `[{ "name": "good", "prompt": "p" }]`,
    })
    const { cases, problems } = await loadEvalCases(directory)
    expect(cases.map((entry) => entry.name)).toEqual(["good"])
    expect(problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${escapeRegExp(file("broken.ts"))}: cannot import the case file: syntax error at .*broken\\.ts:1:`,
        ),
      ),
      `${file("none.ts")}: has no default export; write \`export default [{ name: "...", prompt: "...", expect: {...} }]\``,
      `${file("object.js")}: its default export is not an array of cases; write \`export default [{ name: "...", prompt: "...", expect: {...} }]\``,
      `${file("throws.mjs")}: cannot import the case file: no network at import time`,
    ])
    expect(problems.every((problem) => problem.code === "EVAL_CASE_INVALID")).toBe(true)
  })

  test("checks the cases of a module as it checks JSON, on the line of the case's name", async () => {
    const directory = useTmpDir("tool-tester-evals-")
    writeFiles(directory, {
      [file("a.ts")]:
        `export default [\n  {\n    name: "typo",\n    prompt: "p",\n    expect: { calls: [{ tool: "weather", args: { when: new Date(0) } }] },\n    runs: -1,\n  },\n]\n`,
    })
    const { cases, problems } = await loadEvalCases(directory, { toolIds: ["weathr"] })
    expect(cases).toEqual([])
    expect(problems.map((problem) => problem.message)).toEqual([
      `${file("a.ts")}:3: cases[0].expect.calls[0].args.when: a Date is not a matcher (use a JSON value, a RegExp, a predicate, or { "$regex" | "$exact" | "$any" })`,
      `${file("a.ts")}:3: cases[0].runs: must be a whole number of at least 1, not a number (-1)`,
      `${file("a.ts")}:3: cases[0].expect.calls[0].tool: no tool "weather" is offered; did you mean "weathr"?`,
    ])
  })

  test("a case whose properties throw when read is a problem, not a crash", async () => {
    const directory = useTmpDir("tool-tester-evals-")
    writeFiles(directory, {
      [file("a.js")]: `export default [
  { name: "fine", prompt: "p" },
  { name: "getter", get prompt() { throw new Error("no prompt here") } },
]
`,
    })
    const { cases, problems } = await loadEvalCases(directory)
    expect(cases.map((entry) => entry.name)).toEqual(["fine"])
    expect(problems.map((problem) => problem.message)).toEqual([
      `${file("a.js")}:3: cases[1]: cannot be read (no prompt here)`,
    ])
  })

  test("a second load sees an edited case file", async () => {
    const directory = useTmpDir("tool-tester-evals-")
    writeFiles(directory, { [file("a.ts")]: `export default [{ name: "one", prompt: "p" }]\n` })
    expect((await loadEvalCases(directory)).cases.map((entry) => entry.name)).toEqual(["one"])
    writeFiles(directory, { [file("a.ts")]: `export default [{ name: "two", prompt: "p" }]\n` })
    expect((await loadEvalCases(directory)).cases.map((entry) => entry.name)).toEqual(["two"])
  })
})

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}
