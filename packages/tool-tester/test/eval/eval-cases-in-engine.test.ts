// TS and JS case files are read in an engine and cross as JSON; their trials are graded in an
// engine, where the predicates are (src/eval/project-cases.ts). A predicate that loops or ends the
// process while grading fails those trials with the reason and is a problem (the gate fails closed).
// In this process: nothing here may import a case file, or this test's own process would loop or exit.

import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { gradeProjectTrials, readProjectCases } from "../../src/eval/project-cases.ts"
import type { EvalTrial } from "../../src/eval-cases/types.ts"
import { useTmpDir, writeFiles } from "../helpers.ts"
import { isRunning } from "../support/processes.ts"

const file = (name: string) => path.join(".opencode", "evals", name)

function trialCalling(name: string, tool: string, args: unknown): EvalTrial {
  return {
    case: name,
    model: "mock/model",
    run: 1,
    durationMs: 1,
    turns: [{ prompt: "p", calls: [{ tool, args, status: "completed" }], text: "" }],
  }
}

// Loaded in an engine: the bound on loading and grading, shorter than the default minute.
const env = { ...process.env, TOOL_TESTER_LOAD_TIMEOUT_MS: "5000" }

describe("case files read and graded in an engine", () => {
  test("cases cross as JSON (RegExps as $regex, predicates as placeholders) and grade as written", {
    timeout: 120_000,
  }, async () => {
    const directory = useTmpDir("tool-tester-evals-")
    const marks = path.join(directory, "marks.txt")
    writeFiles(directory, {
      [file("weather.ts")]: `import { appendFileSync } from "node:fs"
appendFileSync(${JSON.stringify(marks)}, "import " + process.pid + "\\n")
const isRome = (value: unknown) => {
  appendFileSync(${JSON.stringify(marks)}, "predicate " + process.pid + "\\n")
  return value === "Rome"
}
export default [
  { name: "by pattern", prompt: "p", expect: { calls: [{ tool: "weather", args: { city: /^par/i } }] } },
  { name: "rome", prompt: "p", expect: { calls: [{ tool: "weather", args: { city: isRome } }] } },
]
`,
      [file("plain.json")]: JSON.stringify([{ name: "plain", prompt: "p", expect: { calls: [{ tool: "weather" }] } }]),
    })
    const read = await readProjectCases(directory, ["weather"], env)
    expect(read.problems).toEqual([])
    expect(read.cases.map((entry) => entry.name)).toEqual(["plain", "by pattern", "rome"])
    expect(read.cases[1]!.expect).toEqual({
      calls: [{ tool: "weather", args: { city: { $regex: "^par", $flags: "i" } } }],
    })
    expect(read.cases[2]!.expect).toEqual({ calls: [{ tool: "weather", args: { city: { $predicate: "isRome" } } }] })
    // Read in an engine: imported once, and not in this process.
    expect(readFileSync(marks, "utf8")).not.toContain(`import ${process.pid}\n`)

    const trials = [
      trialCalling("plain", "bash", {}),
      trialCalling("by pattern", "weather", { city: "PARIS" }),
      trialCalling("rome", "weather", { city: "Oslo" }),
      trialCalling("rome", "weather", { city: "Rome" }),
    ]
    const { graded, problems } = await gradeProjectTrials(directory, read.cases, trials, read.skip, { env })
    expect(problems).toEqual([])
    expect(graded.map((trial) => trial.grade)).toEqual([
      { pass: false, reasons: ["expected weather; called bash({})"] },
      { pass: true, reasons: [] },
      {
        pass: false,
        reasons: [
          'expected weather({city: isRome}); called weather({city: "Oslo"}) (city: expected isRome, got "Oslo")',
        ],
      },
      { pass: true, reasons: [] },
    ])
    const lines = readFileSync(marks, "utf8").trim().split("\n")
    expect(lines.filter((line) => line.startsWith("predicate ")).length).toBe(2)
    for (const line of lines) expect(line).not.toBe(`predicate ${process.pid}`)
  })

  test("a predicate that loops fails its file's trials and is a problem; other files' trials still grade", {
    timeout: 120_000,
  }, async () => {
    const directory = useTmpDir("tool-tester-evals-")
    writeFiles(directory, {
      [file("loops.ts")]: `export default [
  { name: "loops", prompt: "p", expect: { calls: [{ tool: "weather", args: () => { while (true) {} } }] } },
]
`,
      [file("plain.json")]: JSON.stringify([{ name: "plain", prompt: "p", expect: { calls: [{ tool: "weather" }] } }]),
    })
    const read = await readProjectCases(directory, undefined, env)
    expect(read.problems).toEqual([])
    const trials = [trialCalling("loops", "weather", {}), trialCalling("plain", "weather", {})]
    const { graded, problems } = await gradeProjectTrials(directory, read.cases, trials, read.skip, { env })
    const reason =
      "grading did not finish within 5000 ms: a predicate that never returns (a loop)? Predicates must answer at once"
    expect(graded.map((trial) => trial.grade)).toEqual([
      { pass: false, reasons: [`EVAL_CASE_INVALID: ${reason}`] },
      { pass: true, reasons: [] },
    ])
    expect(problems).toEqual([
      {
        code: "EVAL_CASE_INVALID",
        file: file("loops.ts"),
        message: `${reason}; the trials of the cases of ${file("loops.ts")} count as failed`,
      },
    ])
  })

  test("a predicate that calls process.exit fails its file's trials and is a problem", {
    timeout: 120_000,
  }, async () => {
    const directory = useTmpDir("tool-tester-evals-")
    writeFiles(directory, {
      [file("exits.mjs")]: `export default [
  { name: "exits", prompt: "p", expect: { calls: [{ tool: "weather", args: () => process.exit(7) }] } },
]
`,
    })
    const read = await readProjectCases(directory, undefined, env)
    const { graded, problems } = await gradeProjectTrials(
      directory,
      read.cases,
      [trialCalling("exits", "weather", {})],
      read.skip,
      { env },
    )
    const reason = "the engine grading the trials ended (process.exit(7)): a predicate that ends the process?"
    expect(graded[0]!.grade).toEqual({ pass: false, reasons: [`EVAL_CASE_INVALID: ${reason}`] })
    expect(problems.map((problem) => problem.code)).toEqual(["EVAL_CASE_INVALID"])
  })

  test("Ctrl-C while a predicate loops ends the grading engine and stops the grading", {
    timeout: 120_000,
  }, async () => {
    const directory = useTmpDir("tool-tester-evals-")
    const marker = path.join(directory, "grading.pid")
    writeFiles(directory, {
      [file("loops.ts")]: `import { writeFileSync } from "node:fs"
const spin = () => {
  writeFileSync(${JSON.stringify(marker)}, String(process.pid))
  while (true) {}
}
export default [{ name: "loops", prompt: "p", expect: { calls: [{ tool: "weather", args: spin }] } }]
`,
    })
    const read = await readProjectCases(directory, undefined, env)
    const controller = new AbortController()
    // A bound far above the test's: only the abort can end the grading in time.
    const grading = gradeProjectTrials(directory, read.cases, [trialCalling("loops", "weather", {})], read.skip, {
      env: { ...process.env, TOOL_TESTER_LOAD_TIMEOUT_MS: "600000" },
      signal: controller.signal,
    })
    while (!existsSync(marker) || readFileSync(marker, "utf8") === "") {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    controller.abort()
    await expect(grading).rejects.toThrow()
    const pid = Number(readFileSync(marker, "utf8"))
    expect(pid).not.toBe(process.pid)
    expect(isRunning(pid)).toBe(false)
  })

  test("a JSON case file cannot forge a predicate placeholder", { timeout: 60_000 }, async () => {
    const directory = useTmpDir("tool-tester-evals-")
    writeFiles(directory, {
      [file("forged.json")]: JSON.stringify([
        { name: "forged", prompt: "p", expect: { calls: [{ tool: "weather", args: { city: { $predicate: "x" } } }] } },
      ]),
    })
    const read = await readProjectCases(directory, undefined, env)
    expect(read.cases).toEqual([])
    expect(read.problems.map((problem) => problem.message)).toEqual([
      `${file("forged.json")}:1: cases[0].expect.calls[0].args.city.$predicate: unknown matcher "$predicate" (matchers: $regex, $flags, $exact, $any)`,
    ])
  })
})
