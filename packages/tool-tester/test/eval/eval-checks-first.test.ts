// `tool-tester eval` flags checked before anything runs, and the commands it prints, in-process
// (no model, no opencode): a file it writes only after every trial must be writable at the start,
// and a printed command must name the project the user gave.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { writeHtmlReport } from "../../src/cli/commands/eval.ts"
import { isEvalReportText, isHistoryText } from "../../src/eval/report/index.ts"
import { jsonError, runCli, useTmpDir, writeFiles } from "../helpers.ts"
import { tmpProject } from "../support/tmp-project.ts"
import { sampleRun } from "./_report-sample.ts"

describe("tool-tester eval, before anything runs", { timeout: 120_000 }, () => {
  test("--html or --history naming a folder is a usage error at once, not a crash after the trials", async () => {
    const project = tmpProject({ ".opencode/evals/.keep": "" })
    const folder = useTmpDir()
    for (const flag of ["--html", "--history"]) {
      const result = await runCli(["eval", "--model", "keyword/alpha", flag, folder, "--json"], { cwd: project })
      expect(result.exitCode).toBe(1)
      expect(jsonError(result)).toMatchObject({
        code: "USAGE",
        message: expect.stringMatching(new RegExp(`^${flag} .* is a folder: give a file path you can write`)),
      })
    }
    const under = await runCli(["eval", "--model", "keyword/alpha", "--html", ".opencode/evals/.keep/report.html"], {
      cwd: project,
    })
    expect(under.exitCode).toBe(1)
    expect(under.stderr).toContain("cannot be created")
  })

  test("the default history file being a folder (or a FIFO) is a usage error at once, not a crash after the trials", async () => {
    const project = tmpProject({
      ".opencode/evals/greet.json": JSON.stringify([{ name: "greets", prompt: "Greet Ada" }]),
    })
    mkdirSync(path.join(project, ".opencode", "evals", "history.jsonl"))
    const result = await runCli(["eval", "--model", "keyword/alpha", "--json"], { cwd: project })
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(
        /^the history file .*history\.jsonl is a folder: remove it, or give --history FILE or --no-history$/,
      ),
    })
    // A --dir that is no folder is said as such, not as a history file that cannot be created.
    const notFolder = await runCli(["eval", "--model", "keyword/alpha", "--dir", "x.ts", "--json"], {
      cwd: tmpProject({ "x.ts": "" }),
    })
    expect(jsonError(notFolder).code).toBe("PATH_NOT_FOUND")
    // --no-history does not ask about it.
    const none = await runCli(["eval", "--model", "keyword/alpha", "--no-history", "--case", "nope"], { cwd: project })
    expect(none.stderr).toContain('no eval case named "nope"')
  })

  test("more trials than one eval runs (a case's runs: 1e9, --runs 200000) is a usage error before opencode starts", async () => {
    // Every trial is planned before the first: a billion ran out of memory after opencode had started.
    const project = tmpProject({
      ".opencode/evals/greet.json": JSON.stringify([
        { name: "greets", prompt: "Greet Ada", runs: 1e9 },
        { name: "waves", prompt: "Wave at Ada" },
      ]),
    })
    const huge = await runCli(["eval", "--model", "keyword/alpha", "--no-history", "--json"], { cwd: project })
    expect(huge.exitCode).toBe(1)
    expect(jsonError(huge)).toEqual({
      code: "USAGE",
      message:
        "this eval would run 1,000,000,001 trials (2 cases with their runs x 1 model), more than the 100,000 one eval runs: lower --runs or a case's runs, or run fewer cases (--case) or models at a time",
    })
    const flag = await runCli(
      [
        "eval",
        "--model",
        "keyword/alpha",
        "--model",
        "keyword/beta",
        "--case",
        "waves",
        "--runs",
        "60000",
        "--no-history",
      ],
      { cwd: project },
    )
    expect(flag.exitCode).toBe(1)
    expect(flag.stderr).toContain("this eval would run 120,000 trials (1 case with its runs x 2 models)")
  })

  test("a --model that is not provider/model is a usage error before anything starts, --init included", async () => {
    // No case file at all: anything that read the project or started opencode would say something else.
    const project = tmpProject({})
    for (const model of ["gpt-5", "openai/", "/gpt-5"]) {
      const result = await runCli(["eval", "--model", "keyword/alpha", "--model", model, "--json"], { cwd: project })
      expect(result.exitCode).toBe(1)
      expect(jsonError(result)).toEqual({
        code: "USAGE",
        message: `--model ${model} is not a model id: give provider/model, as \`opencode models\` prints them (such as anthropic/claude-sonnet-4-5)`,
      })
    }
    const init = await runCli(["eval", "--init", "--model", "gpt-5"], { cwd: project })
    expect(init.exitCode).toBe(1)
    expect(init.stderr).toContain("--model gpt-5 is not a model id: give provider/model")
    expect(existsSync(path.join(project, ".opencode"))).toBe(false)
  })

  test("--json with no case that can run: one failure line on stderr, naming the first problem and how many more", async () => {
    const project = tmpProject({
      ".opencode/evals/a.json": "[{",
      ".opencode/evals/b.json": JSON.stringify([{ name: "no prompt" }]),
    })
    const result = await runCli(["eval", "--model", "keyword/alpha", "--no-history", "--json"], { cwd: project })
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr.trim().split("\n")).toHaveLength(1)
    expect(jsonError(result)).toMatchObject({
      code: "EVAL_CASE_INVALID",
      message: expect.stringMatching(/a\.json.* \(and 1 more\)$/),
    })
  })

  test("--html naming the history file is a usage error at once: the page would replace the history", async () => {
    const project = tmpProject({ ".opencode/evals/.keep": "" })
    for (const args of [
      ["--html", "evals.out", "--history", "evals.out"],
      ["--html", path.join(".opencode", "evals", "history.jsonl")],
    ]) {
      const result = await runCli(["eval", "--model", "keyword/alpha", ...args, "--json"], { cwd: project })
      expect(result.exitCode).toBe(1)
      expect(jsonError(result)).toMatchObject({
        code: "USAGE",
        message: expect.stringMatching(/^--html .* is the history file \(.*\): give the page a file of its own/),
      })
    }
    // Without a history, the page may go anywhere.
    const none = await runCli(
      ["eval", "--model", "keyword/alpha", "--html", path.join(".opencode", "evals", "history.jsonl"), "--no-history"],
      { cwd: project },
    )
    expect(none.stderr).toContain("no eval cases")
  })

  test("--history FILE with --no-history is a usage error, as the usage line shows them apart: one of them would be ignored", async () => {
    const project = tmpProject({ ".opencode/evals/.keep": "" })
    const result = await runCli(
      ["eval", "--model", "keyword/alpha", "--history", "h.jsonl", "--no-history", "--json"],
      {
        cwd: project,
      },
    )
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toEqual({
      code: "USAGE",
      message: "give either --history FILE or --no-history, not both",
    })
  })

  test("--case naming a case that could not be read says what is wrong with it, not that no case has that name", async () => {
    const project = tmpProject({
      ".opencode/evals/cases.json": JSON.stringify([
        { name: "ok", prompt: "hi" },
        { name: "weather in Paris", prompt: "hi", maxTokens: 0 },
      ]),
    })
    const invalid = await runCli(["eval", "--model", "keyword/alpha", "--case", "weather in Paris", "--json"], {
      cwd: project,
    })
    expect(invalid.exitCode).toBe(1)
    expect(jsonError(invalid)).toMatchObject({
      code: "EVAL_CASE_INVALID",
      message: expect.stringContaining("maxTokens: must be a whole number of tokens of at least 1"),
    })
    // A case file that could not be read at all may hold the case: that is said beside its problem.
    writeFiles(project, { ".opencode/evals/more.json": '[{ "name": "forecast", ' })
    const unread = await runCli(["eval", "--model", "keyword/alpha", "--case", "forecast"], { cwd: project })
    expect(unread.exitCode).toBe(1)
    expect(unread.stderr).toMatch(/more\.json:1:\d+: not valid JSON/)
    expect(unread.stderr).toContain(
      'no eval case named "forecast" (cases: ok); it may be in a case file that could not be read [USAGE]',
    )
  })

  test("a case naming a tool with a typo is told the project's tool it probably meant before a built-in as close", async () => {
    const project = tmpProject({
      ".opencode/tools/greet.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Greet someone by name", args: { name: tool.schema.string() }, async execute(args) { return "Hello, " + args.name } })
`,
      ".opencode/evals/cases.json": JSON.stringify([
        { name: "greets", prompt: "hi", expect: { calls: [{ tool: "gret" }] } },
      ]),
    })
    const result = await runCli(["eval", "--model", "keyword/alpha", "--json"], { cwd: project })
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toMatchObject({
      code: "EVAL_TOOL_UNKNOWN",
      message: expect.stringContaining('no tool "gret" is offered; did you mean "greet"?'),
    })
  })

  // Root passes access() in /proc, and Node's recursive mkdir never returns there: the page would
  // have hung the command once every trial had run.
  test.runIf(process.platform === "linux")(
    "--html or --history under /proc is refused before anything runs",
    async () => {
      const project = tmpProject({ ".opencode/evals/.keep": "" })
      for (const flag of ["--html", "--history"]) {
        const file = `/proc/tool-tester-${process.pid}/out/report.html`
        const result = await runCli(["eval", "--model", "keyword/alpha", flag, file, "--json"], { cwd: project })
        expect(result.exitCode).toBe(1)
        expect(jsonError(result)).toMatchObject({
          code: "USAGE",
          message: expect.stringMatching(
            new RegExp(`^${flag} ${file} cannot be created \\(.* cannot be created \\(E[A-Z]+\\)\\)`),
          ),
        })
      }
    },
  )

  test("--html or --history naming a file eval did not write is refused, and the file left as it was", async () => {
    const project = tmpProject({
      ".opencode/evals/.keep": "",
      "notes.txt": "precious notes\n",
      ".opencode/tools/weather.ts": "export default {}\n",
    })
    for (const [flag, file] of [
      ["--html", "notes.txt"],
      ["--html", ".opencode/tools/weather.ts"],
      ["--history", "notes.txt"],
    ] as const) {
      const before = readFileSync(path.join(project, file), "utf8")
      const result = await runCli(["eval", "--model", "keyword/alpha", flag, file, "--json"], { cwd: project })
      expect(result.exitCode).toBe(1)
      expect(jsonError(result)).toMatchObject({
        code: "USAGE",
        message: expect.stringMatching(
          new RegExp(
            `^${flag} .*${path.basename(file).replace(".", "\\.")} exists and is not an eval (report|history), so eval leaves it alone`,
          ),
        ),
      })
      expect(readFileSync(path.join(project, file), "utf8")).toBe(before)
    }
  })

  test("an eval report or history eval wrote, and an empty file, may be given again", () => {
    expect(
      isEvalReportText(
        '<!doctype html>\n<html lang="en">\n<head>\n<title>tool-tester eval: 2/2 trials passed (x)</title>',
      ),
    ).toBe(true)
    expect(isEvalReportText("<!doctype html><title>my page</title>")).toBe(false)
    expect(isHistoryText("")).toBe(true)
    expect(isHistoryText("precious notes")).toBe(false)
    expect(isHistoryText('{"runId":"r"}')).toBe(false)
  })

  test("a history whose first line cannot be read (a merge conflict, a crash mid-write) may be given again, as reading skips it", () => {
    const entry = JSON.stringify({
      runId: "r",
      startedAt: "2026-12-01T00:00:00.000Z",
      case: "greets",
      model: "keyword/alpha",
      runs: 1,
      passed: 1,
      tools: [],
      failures: [],
    })
    expect(isHistoryText(`${entry}\n`)).toBe(true)
    expect(isHistoryText(`<<<<<<< HEAD\n${entry}\n=======\n${entry}\n>>>>>>> theirs\n`)).toBe(true)
    expect(isHistoryText(`{"runId":"r","startedAt":"2026\n${entry}\n`)).toBe(true)
    expect(isHistoryText("<<<<<<< HEAD\nprecious notes\n")).toBe(false)
  })

  test("the commands it prints (no cases, --init) keep --dir, so that they run where they were typed", async () => {
    const project = tmpProject({})
    const elsewhere = useTmpDir()
    const relative = path.relative(elsewhere, project)
    const result = await runCli(["eval", "--model", "keyword/alpha", "--dir", relative], { cwd: elsewhere })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(`tool-tester eval --init --dir ${relative} writes starter cases`)

    writeFiles(project, {
      ".opencode/tools/greet.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Greet someone by name", args: { name: tool.schema.string() }, async execute(args) { return "Hello, " + args.name } })
`,
    })
    const init = await runCli(["eval", "--init", "--dir", relative], { cwd: elsewhere })
    expect(init.exitCode, init.stderr).toBe(0)
    // No opencode.json names a model: the step says to pick one (eval alone would stop at EVAL_NO_MODEL).
    expect(init.stdout).toContain(
      `No opencode.json here names a model: list the ones you can use with \`opencode models\`, then run the cases on one: `,
    )
    expect(init.stdout).toContain(`tool-tester eval --dir ${relative} --model <provider/model>\n`)
    const pasted = await runCli(["eval", "--dir", relative], { cwd: elsewhere })
    expect(jsonError(await runCli(["eval", "--dir", relative, "--json"], { cwd: elsewhere })).code).toBe(
      "EVAL_NO_MODEL",
    )
    expect(pasted.exitCode).toBe(1)
  })

  test("--init keeps the run's options for the command it prints, and refuses a bad one before writing", async () => {
    const project = tmpProject({
      ".opencode/tools/greet.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Greet someone by name", args: { name: tool.schema.string() }, async execute(args) { return "Hello, " + args.name } })
`,
    })
    const bad = await runCli(["eval", "--init", "--runs", "three", "--json"], { cwd: project })
    expect(bad.exitCode).toBe(1)
    expect(jsonError(bad)).toMatchObject({ code: "USAGE", message: expect.stringContaining("--runs") })
    expect(existsSync(path.join(project, ".opencode/evals/greet.json"))).toBe(false)

    // A model on the command line: no opencode.json has to name one, and the printed run uses it.
    const init = await runCli(["eval", "--init", "--model", "anthropic/claude-sonnet-4-5", "--runs", "3"], {
      cwd: project,
    })
    expect(init.exitCode, init.stderr).toBe(0)
    expect(existsSync(path.join(project, ".opencode/evals/greet.json"))).toBe(true)
    expect(init.stdout).toMatch(
      /Edit the prompts and expected arguments, then run them: .*tool-tester eval --model anthropic\/claude-sonnet-4-5 --runs 3\n$/,
    )

    const threshold = await runCli(["eval", "--init", "--threshold", "0.8", "--no-history"], { cwd: project })
    expect(threshold.exitCode, threshold.stderr).toBe(0)
    expect(threshold.stdout).toContain("kept")
    expect(threshold.stdout).toContain(" eval --threshold 0.8 --no-history --model <provider/model>\n")
  })

  test("a page that cannot be written once the trials have run is a problem beside the report, not a crash that loses it; an earlier page is replaced whole or kept", () => {
    const { run, history } = sampleRun()
    const outcome = { run, changes: new Map(), history }
    const folder = useTmpDir()
    const file = path.join(folder, "out", "report.html")
    // Written, then replaced by the next run's page, nothing left beside it.
    expect(writeHtmlReport(file, outcome)).toEqual({ file })
    const first = readFileSync(file, "utf8")
    expect(isEvalReportText(first)).toBe(true)
    expect(writeHtmlReport(file, outcome)).toEqual({ file })
    expect(readdirSync(path.dirname(file))).toEqual(["report.html"])
    // The folder turned into a file during the run: checked at the start, it fails only now.
    rmSync(path.dirname(file), { recursive: true })
    writeFileSync(path.dirname(file), "not a folder")
    const blocked = writeHtmlReport(file, outcome)
    expect(blocked.file).toBeUndefined()
    expect(blocked.problem).toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(/^--html .*report\.html could not be written after the run \(.*\); no page/),
    })
    // The page cannot be written in place (a folder is there now): the earlier page's folder keeps only it.
    rmSync(path.dirname(file))
    mkdirSync(file, { recursive: true })
    expect(writeHtmlReport(file, outcome).problem?.code).toBe("USAGE")
    expect(readdirSync(path.dirname(file))).toEqual(["report.html"])
  })
})
