// Variants side by side, --without, and budgets, through the real opencode with the keyword model
// (issue 37's "done when"): a variant whose description lacks the prompt's words loses to the
// current description with intervals that do not overlap; --without shows what the model did
// instead; a case over its time budget fails with its figure; a bad --variants file or --without id
// is one line with a code.
import { mkdirSync, writeFileSync } from "node:fs"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { type CliResult, runCli } from "../helpers.ts"
import { type EvalHome, makeEvalHome } from "../support/eval-home.ts"
import { type KeywordModel, startKeywordModel } from "../support/keyword-model.ts"

let keyword: KeywordModel
let home: EvalHome
let project: string

// No imports: the throw-away project has no node_modules. The description holds the prompt's words.
const lookupTool = `export default {
  description: "Look up the capital city of a country",
  args: { country: { type: "string", description: "The country" } },
  async execute(args) {
    return "unused"
  },
}
`

const cases = [
  {
    name: "capital",
    prompt: 'What is the capital of country="France"?',
    expect: { calls: [{ tool: "lookup", args: { country: "France" } }] },
  },
  {
    name: "capital in no time",
    prompt: 'Find the capital of country="Peru"',
    expect: { calls: [{ tool: "lookup" }] },
    maxMs: 1,
  },
]

function evalCli(args: string[]): Promise<CliResult> {
  return runCli(["eval", "--no-history", ...args], {
    cwd: project,
    home: path.join(home.root, "home"),
    env: { TMPDIR: home.tmp, XDG_STATE_HOME: path.join(home.root, "home", ".local", "state") },
  })
}

interface Report {
  run: {
    results: Array<{
      case: string
      arm?: string
      passed: number
      runs: number
      trials: Array<{ grade: { reasons: string[] } }>
    }>
  }
  arms: {
    variants: Array<{
      case: string
      variants: Array<{ variant: string; passed: number; interval: { low: number; high: number } }>
      winner?: string
    }>
    without: Array<{ case: string; tool: string; difference: number; instead: Array<{ what: string; count: number }> }>
  }
}

describe("eval --variants and --without with the keyword model", { timeout: 600_000 }, () => {
  beforeAll(async () => {
    keyword = await startKeywordModel()
    home = makeEvalHome({
      providers: { keyword: { baseURL: keyword.baseURL, models: ["alpha"] } },
      model: "keyword/alpha",
    })
    project = path.join(home.root, "work", "app")
    mkdirSync(path.join(project, ".opencode", "tools"), { recursive: true })
    mkdirSync(path.join(project, ".opencode", "evals"), { recursive: true })
    writeFileSync(path.join(project, ".opencode", "tools", "lookup.js"), lookupTool)
    writeFileSync(path.join(project, ".opencode", "evals", "lookup.json"), JSON.stringify(cases, null, 2))
    writeFileSync(
      path.join(project, "variants.json"),
      JSON.stringify({ vague: { lookup: { description: "Returns data.", args: { country: "A name" } } } }),
    )
  }, 120_000)

  afterAll(async () => {
    await keyword?.close()
    home?.remove()
  })

  test("a variant without the prompt's words loses with non-overlapping intervals; --without shows the fallback; a budget fails with its figure", async () => {
    const result = await evalCli(["--runs", "5", "--variants", "variants.json", "--without", "lookup", "--json"])
    expect(result.stderr).toBe("")
    const report = JSON.parse(result.stdout) as Report
    const capital = report.arms.variants.find((comparison) => comparison.case === "capital")
    expect(capital?.variants.map((row) => [row.variant, row.passed])).toEqual([
      ["current", 5],
      ["vague", 0],
    ])
    expect(capital?.winner).toBe("current")
    const [current, vague] = capital?.variants ?? []
    expect(current!.interval.low).toBeGreaterThan(vague!.interval.high)

    const without = report.arms.without.find((comparison) => comparison.case === "capital")
    expect(without).toMatchObject({
      tool: "lookup",
      difference: -100,
      instead: [{ what: "answered in text", count: 5 }],
    })

    const budget = report.run.results.find((entry) => entry.case === "capital in no time" && entry.arm === undefined)
    expect(budget?.passed).toBe(0)
    expect(budget?.trials[0]?.grade.reasons).toEqual([expect.stringMatching(/^over budget: took \d+ ms, maxMs 1$/)])
    // The model saw the variant's words only in its arm.
    expect(keyword.requests.some((request) => request.prompt.includes("France"))).toBe(true)
  })

  test("the table shows the variants and the --without run side by side", async () => {
    const result = await evalCli([
      "--case",
      "capital",
      "--runs",
      "5",
      "--variants",
      "variants.json",
      "--without",
      "lookup",
    ])
    expect(result.exitCode).toBe(0)
    // Lines wrap at the terminal's width: compare the words.
    const text = result.stdout.replace(/\s+/g, " ")
    expect(text).toContain("Variants side by side")
    expect(text).toContain(
      "capital on keyword/alpha: current 5/5 (57-100%), vague 0/5 (0-43%); current wins (its interval lies above the others')",
    )
    expect(text).toContain(
      "capital on keyword/alpha: with lookup 5/5 (57-100%), without 0/5 (0-43%) (-100 points); without it the model answered in text 5x",
    )
  })

  test("a bad variants file or --without id is one line with a code, before opencode starts", async () => {
    writeFileSync(path.join(project, "typo.json"), JSON.stringify({ v: { lookupp: { description: "x" } } }))
    writeFileSync(path.join(project, "badarg.json"), JSON.stringify({ v: { lookup: { args: { contry: "x" } } } }))
    writeFileSync(path.join(project, "broken.json"), "{ not json")
    const typo = await evalCli(["--variants", "typo.json"])
    expect(typo.exitCode).toBe(1)
    expect(typo.stderr).toMatch(
      /--variants .*typo\.json: v: no tool "lookupp" in this project; did you mean "lookup"\?.*\[EVAL_VARIANTS_INVALID\]/,
    )
    const badArg = await evalCli(["--variants", "badarg.json"])
    expect(badArg.stderr).toMatch(/v\.lookup\.args: lookup has no argument "contry"; did you mean "country"\?/)
    const broken = await evalCli(["--variants", "broken.json"])
    expect(broken.stderr).toMatch(/not JSON.*\[EVAL_VARIANTS_INVALID\]/)
    const missing = await evalCli(["--variants", "nowhere.json"])
    expect(missing.stderr).toMatch(/nowhere\.json: no such file \[EVAL_VARIANTS_INVALID\]/)
    const without = await evalCli(["--without", "lookpu"])
    expect(without.exitCode).toBe(1)
    expect(without.stderr).toMatch(
      /--without lookpu: no tool of that id; did you mean "lookup"\?.*\[EVAL_WITHOUT_UNKNOWN\]/,
    )
    for (const run of [typo, badArg, broken, missing, without]) expect(run.stderr.trim().split("\n")).toHaveLength(1)
  })
})
