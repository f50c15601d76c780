// `tool-tester eval` as a user meets it (issue 25's "done when"): a project scaffolded by the built
// create-tool, `eval --init`, then `eval` with the keyword model as the user's own provider (through
// the real opencode, offline), cases that pass and fail as they say, `--threshold` setting the exit
// code, the history comparing after a description edit, `--json`, and the HTML page in chromium.
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { type CliResult, jsonError, packageRoot, runCli } from "../helpers.ts"
import { launchChromium, noChromium } from "../inspector/_inspector.ts"
import { type EvalHome, evalProcesses, makeEvalHome } from "../support/eval-home.ts"
import { type KeywordModel, startKeywordModel } from "../support/keyword-model.ts"

const workspace = path.resolve(packageRoot, "..", "..")
const createTool = path.join(workspace, "packages", "create-tool", "bin.js")
const screenshots = path.join(packageRoot, ".tmp", "screenshots")

let keyword: KeywordModel
let home: EvalHome
let project: string

function evalCli(args: string[]): Promise<CliResult> {
  return runCli(["eval", ...args], {
    cwd: project,
    home: path.join(home.root, "home"),
    env: { TMPDIR: home.tmp, XDG_STATE_HOME: path.join(home.root, "home", ".local", "state") },
  })
}

interface JsonReport {
  run: {
    results: Array<{
      case: string
      model: string
      runs: number
      passed: number
      trials: Array<{ grade: { reasons: string[] } }>
    }>
  }
  changes: Record<
    string,
    { previous: { passed: number; runs: number }; toolChanges: Array<{ id: string; diff: string }> }
  >
  problems: Array<{ code: string; message: string }>
  belowThreshold: Array<{ case: string }>
  history: string
}

function result(report: JsonReport, name: string) {
  const found = report.run.results.find((candidate) => candidate.case === name)
  if (found === undefined)
    throw new Error(`no result for ${name}: ${JSON.stringify(report.run.results.map((r) => r.case))}`)
  return found
}

describe("tool-tester eval on a freshly scaffolded project", { timeout: 300_000 }, () => {
  beforeAll(async () => {
    keyword = await startKeywordModel()
    home = makeEvalHome({
      providers: { keyword: { baseURL: keyword.baseURL, models: ["alpha"] } },
      model: "keyword/alpha",
    })
    // Inside the throw-away home's folder, which afterAll removes with everything else.
    project = path.join(home.root, "work", "app")
    mkdirSync(project, { recursive: true })
    const scaffold = spawnSync(
      process.execPath,
      [createTool, "hello", "--dir", project, "--description", "Greet someone by name", "--no-interactive"],
      {
        encoding: "utf8",
        env: { ...process.env, CI: "true", NO_COLOR: "1" },
      },
    )
    expect(scaffold.status, scaffold.stderr).toBe(0)
    // What `npm install` in .opencode would give, without a network: the workspace's plugin package.
    const modules = path.join(project, ".opencode", "node_modules", "@opencode-ai")
    mkdirSync(modules, { recursive: true })
    symlinkSync(path.join(workspace, "packages", "plugin"), path.join(modules, "plugin"), "junction")
  }, 120_000)

  afterAll(async () => {
    await keyword?.close()
    home?.remove()
  })

  test("--init writes starter cases from the tool, and never overwrites them", async () => {
    const first = await evalCli(["--init"])
    expect(first.stderr).toBe("")
    expect(first.exitCode).toBe(0)
    const file = path.join(project, ".opencode", "evals", "hello.json")
    expect(first.stdout).toContain(`wrote ${path.join(".opencode", "evals", "hello.json")}`)
    expect(existsSync(file)).toBe(true)
    // The next step it prints runs as pasted (from the project, where the user is).
    expect(first.stdout).toMatch(
      /then run them on the model opencode uses for this project \(its config, or a plugin that sets it\): .* eval\n/,
    )
    const written = readFileSync(file, "utf8")
    const again = await evalCli(["--init"])
    expect(again.exitCode).toBe(0)
    expect(again.stdout).toContain("kept")
    expect(readFileSync(file, "utf8")).toBe(written)
  })

  test("eval passes and fails as the cases say; --threshold sets the exit code; the history compares after a description edit", async () => {
    // A case that must fail: the model is asked for Ada, the case expects Grace.
    writeFileSync(
      path.join(project, ".opencode", "evals", "names.json"),
      `${JSON.stringify(
        [
          {
            name: "greets Ada",
            prompt: "Greet someone by name input=Ada",
            expect: { calls: [{ tool: "hello", args: { input: "Ada" } }] },
          },
          {
            name: "greets Grace",
            prompt: "Greet someone by name input=Ada",
            expect: { calls: [{ tool: "hello", args: { input: { $regex: "^grace$", $flags: "i" } } }] },
          },
        ],
        null,
        2,
      )}\n`,
    )
    const first = await evalCli(["--runs", "2", "--json"])
    expect(first.exitCode, first.stderr).toBe(0)
    const report = JSON.parse(first.stdout) as JsonReport
    expect(report.problems).toEqual([])
    expect(report.run.results.every((entry) => entry.model === "keyword/alpha" && entry.runs === 2)).toBe(true)
    expect(result(report, "greets Ada").passed).toBe(2)
    const grace = result(report, "greets Grace")
    expect(grace.passed).toBe(0)
    expect(grace.trials[0]!.grade.reasons.join("\n")).toContain('called hello({input: "Ada"})')
    // The starter cases pass as written.
    for (const entry of report.run.results.filter((candidate) => candidate.case.startsWith("hello")))
      expect(entry.passed, entry.case).toBe(2)

    // --threshold: 100% fails (exit 8, the case named: with --json, the report on stdout and the
    // one failure line on stderr, the text report's verdict), 0% passes.
    const strict = await evalCli(["--case", "greets Grace", "--threshold", "1", "--json"])
    expect(strict.exitCode, strict.stderr).toBe(8)
    expect((JSON.parse(strict.stdout) as JsonReport).problems).toEqual([])
    expect(
      strict.stderr
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([
      {
        error: {
          code: "EVAL_BELOW_THRESHOLD",
          message: "1 of 1 case x model results are below the threshold (100%): greets Grace on keyword/alpha 0/1",
        },
      },
    ])
    const lenient = await evalCli(["--case", "greets Grace", "--threshold", "0%"])
    expect(lenient.exitCode, lenient.stderr).toBe(0)

    // The description changes so the model no longer finds the tool: the history shows the drop and why.
    const toolFile = path.join(project, ".opencode", "tools", "hello.ts")
    writeFileSync(toolFile, readFileSync(toolFile, "utf8").replace("Greet someone by name", "Compose a salutation"))
    const html = path.join(project, "eval-report.html")
    const after = await evalCli(["--case", "greets Ada", "--runs", "2", "--html", html])
    expect(after.exitCode, after.stderr).toBe(0)
    expect(after.stdout).toContain("greets Ada")
    expect(after.stdout).toContain("2/2 -> 0/2")
    expect(after.stdout).toContain("- Greet someone by name")
    expect(after.stdout).toContain("+ Compose a salutation")
    expect(after.stderr).toContain(`history: ${path.join(".opencode", "evals", "history.jsonl")}`)
    expect(after.stderr).toContain("report: eval-report.html")
    const lines = readFileSync(path.join(project, ".opencode", "evals", "history.jsonl"), "utf8")
      .trim()
      .split("\n")
    // 4 cases in the first run, 1 in each of the three after it.
    expect(lines).toHaveLength(7)
    expect(evalProcesses(home)).toEqual([])
  })

  const skipped = noChromium === undefined ? "" : ` (skipped: ${noChromium})`
  test.skipIf(noChromium !== undefined)(`the HTML report renders the run in chromium${skipped}`, async () => {
    const html = path.join(project, "eval-report.html")
    expect(existsSync(html), "the previous test writes the page").toBe(true)
    const browser = await launchChromium()
    try {
      const page = await browser.newPage()
      await page.setViewportSize({ width: 1280, height: 800 })
      await page.goto(pathToFileURL(html).href)
      expect(await page.locator("table.matrix thead th").allTextContents()).toEqual(["Case", "keyword/alpha"])
      expect(await page.locator("table.matrix tbody th").allTextContents()).toEqual([
        expect.stringContaining("greets Ada"),
      ])
      expect(await page.locator("table.matrix tbody td .rate").allTextContents()).toEqual(["0/2"])
      await page.locator("table.matrix tbody td details summary").first().click()
      await expect
        .poll(() => page.locator("table.matrix tbody td details").first().textContent())
        .toContain("Compose a salutation")
      mkdirSync(screenshots, { recursive: true })
      await page.screenshot({ path: path.join(screenshots, "eval-cli-report.png"), fullPage: true })
      expect(readdirSync(screenshots)).toContain("eval-cli-report.png")
    } finally {
      await browser.close()
    }
  })

  test("bad input: an unknown case name, a bad threshold, a malformed case file, an unknown model, an unknown agent", async () => {
    const unknownCase = await evalCli(["--case", "greets Adaa"])
    expect(unknownCase.exitCode).toBe(1)
    expect(unknownCase.stderr).toContain('no eval case named "greets Adaa"; did you mean "greets Ada"?')
    const badThreshold = await evalCli(["--threshold", "120%"])
    expect(badThreshold.exitCode).toBe(1)
    expect(badThreshold.stderr).toContain("--threshold 120% is not a pass rate")

    writeFileSync(
      path.join(project, ".opencode", "evals", "broken.json"),
      '[\n  { "name": "x", "prompt": "y", "expect": { "calls": [{ "tool": "helo" }] } }\n]\n',
    )
    const run = await evalCli(["--case", "greets Ada", "--model", "keyword/alpha", "--model", "keyword/alpah"])
    expect(run.exitCode, run.stderr).toBe(1)
    expect(run.stderr).toMatch(/broken\.json:2: .*"helo".*did you mean "hello"\? \[EVAL_TOOL_UNKNOWN\]/)
    expect(run.stderr).toMatch(/no model "keyword\/alpah"; did you mean "keyword\/alpha"\? \[EVAL_MODEL_UNKNOWN\]/)
    // The good case still ran on the good model.
    expect(run.stdout).toContain("greets Ada")
    expect(evalProcesses(home)).toEqual([])
    // --json: the report on stdout holds every problem; stderr has the one failure line, naming the first.
    const jsonRun = await evalCli(["--case", "greets Ada", "--model", "keyword/alpah", "--no-history", "--json"])
    expect(jsonRun.exitCode, jsonRun.stderr).toBe(1)
    expect((JSON.parse(jsonRun.stdout) as JsonReport).problems.map((problem) => problem.code)).toEqual([
      "EVAL_TOOL_UNKNOWN",
      "EVAL_MODEL_UNKNOWN",
    ])
    expect(jsonRun.stderr.trim().split("\n")).toHaveLength(1)
    expect(jsonError(jsonRun)).toEqual({
      code: "EVAL_TOOL_UNKNOWN",
      message: expect.stringMatching(/broken\.json:2: .*"helo".* \(and 1 more\)$/),
    })
    expect(evalProcesses(home)).toEqual([])

    // opencode's server fails every prompt to an agent it does not have with "Unexpected server error".
    const agent = await evalCli(["--case", "greets Ada", "--agent", "plann", "--json"])
    expect(agent.exitCode, agent.stderr).toBe(1)
    expect(jsonError(agent)).toEqual({
      code: "USAGE",
      message: expect.stringMatching(
        /^--agent plann: opencode has no agent "plann" in this project; did you mean "plan"\? \(agents you can pick: .*build.*\)$/,
      ),
    })
    expect(agent.stdout).toBe("")
    expect(evalProcesses(home)).toEqual([])
  })
})
