// eval never imports a tool file in its own process. It used to: a tool file calling
// process.exit(0) at import made `eval --threshold 1` exit 0 with no output (a CI gate that
// passes), a busy loop at import made it deaf to signals, and what a file printed at import went
// into `--json`. Now such a file is named (EVAL_TOOL_NOT_WRAPPED), left out, and the gate fails
// closed. Spawns the built bin: the exit code and stdout are what is checked.

import { mkdirSync, writeFileSync } from "node:fs"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { opencode, runCli } from "../helpers.ts"
import type { ChildProcessWithoutNullStreams } from "node:child_process"
import { type EvalHome, makeEvalHome } from "../support/eval-home.ts"
import { type KeywordModel, startKeywordModel } from "../support/keyword-model.ts"

const weather = `export default {
  description: "Weather forecast for a city",
  args: {},
  async execute() {
    return "really ran"
  },
}
`
const tools = {
  "exits.js": `process.exit(0)\nexport default { description: "Never offered", args: {}, async execute() { return "" } }\n`,
  "noisy.js": `console.log("printed at import {")\nprocess.stdout.write("[not json\\n")\nexport const noisy = { description: "Makes noise", args: {}, async execute() { return "" } }\n`,
  "spins.js": `while (true) {}\nexport default { description: "Never offered", args: {}, async execute() { return "" } }\n`,
  "weather.js": weather,
}

let keyword: KeywordModel
let home: EvalHome

describe.skipIf(!opencode.binary)("eval with tool files that exit, loop or print at import", () => {
  beforeAll(async () => {
    keyword = await startKeywordModel()
    home = makeEvalHome({
      providers: { keyword: { baseURL: keyword.baseURL, models: ["alpha"] } },
      model: "keyword/alpha",
    })
  })

  afterAll(async () => {
    await keyword?.close()
    home?.remove()
  })

  it("names each file, leaves it out, keeps --json clean and fails the gate", { timeout: 400_000 }, async () => {
    const project = path.join(home.root, "project")
    mkdirSync(path.join(project, ".opencode", "tools"), { recursive: true })
    mkdirSync(path.join(project, ".opencode", "evals"), { recursive: true })
    for (const [name, source] of Object.entries(tools))
      writeFileSync(path.join(project, ".opencode", "tools", name), source)
    writeFileSync(
      path.join(project, ".opencode", "evals", "weather.json"),
      JSON.stringify([
        {
          name: "weather",
          prompt: "weather forecast today",
          expect: { calls: [{ tool: "weather" }] },
          results: { weather: "sunny" },
        },
      ]),
    )
    const result = await runCli(
      ["eval", "--threshold", "1", "--json", "--no-history", "--opencode", opencode.binary!],
      {
        cwd: project,
        home: path.join(home.root, "home"),
        env: {
          TMPDIR: home.tmp,
          XDG_STATE_HOME: path.join(home.root, "home", ".local", "state"),
          // The busy loop is stopped after this long instead of the default minute.
          TOOL_TESTER_LOAD_TIMEOUT_MS: "8000",
        },
      },
    )
    expect(result.exitCode, result.stderr).toBe(1)
    const report = JSON.parse(result.stdout) as {
      run: { results: Array<{ case: string; passed: number; runs: number }> }
      problems: Array<{ code: string; message: string }>
    }
    expect(report.run.results).toMatchObject([{ case: "weather", passed: 1, runs: 1 }])
    const leftOut = report.problems.filter((problem) => problem.code === "EVAL_TOOL_NOT_WRAPPED")
    // Each file named once, with its own code (IMPORT_FAILED is a plugin's, exit 3): it was also
    // named as IMPORT_FAILED with the same message.
    expect(report.problems.map((problem) => problem.code)).toEqual(["EVAL_TOOL_NOT_WRAPPED", "EVAL_TOOL_NOT_WRAPPED"])
    expect(leftOut.map((problem) => path.basename(problem.message.split(":")[0]!)).sort()).toEqual([
      "exits.js",
      "spins.js",
    ])
    expect(leftOut.find((problem) => problem.message.includes("exits.js"))?.message).toMatch(/process\.exit\(0\)/)
    expect(leftOut.find((problem) => problem.message.includes("spins.js"))?.message).toMatch(
      /did not finish within 8000 ms/,
    )
  })

  it("stops on SIGTERM while a tool file loops at import", { timeout: 300_000 }, async () => {
    const project = path.join(home.root, "spinning")
    mkdirSync(path.join(project, ".opencode", "tools"), { recursive: true })
    mkdirSync(path.join(project, ".opencode", "evals"), { recursive: true })
    writeFileSync(path.join(project, ".opencode", "tools", "spins.js"), tools["spins.js"])
    writeFileSync(path.join(project, ".opencode", "tools", "weather.js"), weather)
    writeFileSync(
      path.join(project, ".opencode", "evals", "weather.json"),
      JSON.stringify([{ name: "weather", prompt: "weather forecast today", results: { weather: "sunny" } }]),
    )
    let child: ChildProcessWithoutNullStreams | undefined
    // 1000 runs: the eval is still at work when the signal comes, however fast the machine (one run
    // ends in well under 10 s on a quiet one, with exit 1 for the file left out).
    const running = runCli(["eval", "--no-history", "--runs", "1000", "--opencode", opencode.binary!], {
      cwd: project,
      home: path.join(home.root, "home"),
      env: {
        TMPDIR: home.tmp,
        XDG_STATE_HOME: path.join(home.root, "home", ".local", "state"),
        // Short, so that the eval is past reading the tools (where it used to import them itself) when the signal comes.
        TOOL_TESTER_LOAD_TIMEOUT_MS: "2000",
      },
      onSpawn: (spawned) => {
        child = spawned
      },
    })
    const spawned = child!
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      spawned.once("exit", (code, signal) => resolve({ code, signal })),
    )
    await new Promise((resolve) => setTimeout(resolve, 10_000))
    spawned.kill("SIGTERM")
    // A CLI stuck in the loop never ends: after two minutes it is killed, and the test fails.
    const stuck = setTimeout(() => spawned.kill("SIGKILL"), 120_000)
    const ended = await exited
    clearTimeout(stuck)
    expect([130, 143].includes(ended.code ?? -1) || ended.signal === "SIGTERM", JSON.stringify(ended)).toBe(true)
    // Its output is not needed; what it started is no-orphans' to check (test/eval/runner-errors.test.ts).
    void running
  })
})
