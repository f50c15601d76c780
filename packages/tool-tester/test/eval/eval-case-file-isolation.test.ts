// eval never imports a TS or JS case file in its own process, and never runs a case's predicate
// there. It used to: a case file calling process.exit(0) at import ended eval itself (a CI gate
// that passes with no output), a loop at import made it deaf to Ctrl-C, and what a case file
// printed at import went into `--json`. Now case files are read in an engine, their cases cross as
// JSON, their trials are graded in an engine, and a file that exits or hangs at import is named
// (EVAL_CASE_INVALID), left out, and the gate fails closed.

import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import path from "node:path"
import type { ChildProcessWithoutNullStreams } from "node:child_process"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { opencode, packageRoot, runCli } from "../helpers.ts"
import { type EvalHome, makeEvalHome } from "../support/eval-home.ts"
import { type KeywordModel, startKeywordModel } from "../support/keyword-model.ts"
import { isRunning } from "../support/processes.ts"

const workspace = path.resolve(packageRoot, "..", "..")

const weatherTool = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Get the weather forecast for a city",
  args: { city: tool.schema.string().describe("The city") },
  async execute(args) {
    return "Sunny in " + args.city
  },
})
`

/** A case file that records the process it is imported in, and the process each predicate runs in. */
function ordinaryCases(pids: string): string {
  return `import { appendFileSync } from "node:fs"
import { cities } from "./_cities.ts"

appendFileSync(${JSON.stringify(pids)}, "import " + process.pid + "\\n")
console.log("printed at import {")
process.stdout.write("[not json\\n")

const isKnownCity = (value: unknown): boolean => {
  appendFileSync(${JSON.stringify(pids)}, "predicate " + process.pid + "\\n")
  return typeof value === "string" && cities.includes(value)
}

export default [
  {
    name: "paris by pattern",
    prompt: "weather forecast for city=Paris",
    expect: { calls: [{ tool: "weather", args: { city: /^par/i } }] },
  },
  {
    name: "oslo is not known",
    prompt: "weather forecast for city=Oslo",
    expect: { calls: [{ tool: "weather", args: { city: isKnownCity } }] },
  },
]
`
}

let keyword: KeywordModel
let home: EvalHome

function evalEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  return {
    TMPDIR: home.tmp,
    XDG_STATE_HOME: path.join(home.root, "home", ".local", "state"),
    ...extra,
  }
}

function makeProject(name: string, files: Record<string, string>): string {
  const project = path.join(home.root, name)
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(project, file)), { recursive: true })
    writeFileSync(path.join(project, file), content)
  }
  return project
}

describe("eval with TS and JS case files", () => {
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

  it("names a case file that calls process.exit at import, and fails", { timeout: 120_000 }, async () => {
    const project = makeProject("exits", {
      ".opencode/evals/exits.ts": `process.exit(0)\nexport default [{ name: "never", prompt: "never" }]\n`,
    })
    const result = await runCli(["eval", "--threshold", "0", "--json", "--no-history"], {
      cwd: project,
      home: path.join(home.root, "home"),
      env: evalEnvironment(),
    })
    expect(result.exitCode, result.stderr).toBe(1)
    const errors = result.stderr
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { error: { code: string; message: string } }).error)
    expect(errors).toEqual([
      {
        code: "EVAL_CASE_INVALID",
        message: `${path.join(".opencode", "evals", "exits.ts")}: it ended the process while it was imported (process.exit(0)): remove the process.exit call; its cases are left out`,
      },
    ])
  })

  it("names a case file that never finishes importing, and fails", { timeout: 120_000 }, async () => {
    const project = makeProject("hangs", {
      ".opencode/evals/a-hangs.mjs": `await new Promise(() => setInterval(() => {}, 1000))\nexport default []\n`,
      ".opencode/evals/b-spins.ts": `while (true) {}\nexport default []\n`,
    })
    const result = await runCli(["eval", "--no-history"], {
      cwd: project,
      home: path.join(home.root, "home"),
      // Stopped after this long instead of the default minute.
      env: evalEnvironment({ TOOL_TESTER_LOAD_TIMEOUT_MS: "3000" }),
    })
    expect(result.exitCode, result.stderr).toBe(1)
    const lines = result.stderr.trim().split("\n")
    expect(lines).toHaveLength(2)
    for (const [index, file] of ["a-hangs.mjs", "b-spins.ts"].entries()) {
      expect(lines[index]).toContain(
        `${path.join(".opencode", "evals", file)}: importing it did not finish within 3000 ms`,
      )
      expect(lines[index]).toMatch(/its cases are left out \[EVAL_CASE_INVALID\]$/)
    }
  })

  it("stops on SIGINT while a case file loops at import", { timeout: 300_000 }, async () => {
    const marker = path.join(home.root, "spinning-engine.pid")
    const project = makeProject("spinning", {
      ".opencode/evals/spins.ts": `import { writeFileSync } from "node:fs"
writeFileSync(${JSON.stringify(marker)}, String(process.pid))
while (true) {}
export default []
`,
    })
    let child: ChildProcessWithoutNullStreams | undefined
    const running = runCli(["eval", "--no-history"], {
      cwd: project,
      home: path.join(home.root, "home"),
      env: evalEnvironment(),
      onSpawn: (spawned) => {
        child = spawned
      },
    })
    const spawned = child!
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      spawned.once("exit", (code, signal) => resolve({ code, signal })),
    )
    try {
      // The case file is being imported (and loops) once it has written its marker.
      while (!existsSync(marker) || readFileSync(marker, "utf8") === "") {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const looping = Number(readFileSync(marker, "utf8"))
      expect(looping).not.toBe(spawned.pid)
      spawned.kill("SIGINT")
      // A CLI stuck in the loop never ends: after two minutes it is killed, and the test fails.
      const stuck = setTimeout(() => spawned.kill("SIGKILL"), 120_000)
      const ended = await exited
      clearTimeout(stuck)
      expect(ended.code === 130 || ended.signal === "SIGINT", JSON.stringify(ended)).toBe(true)
      await running
      // The looping engine was ended with the CLI (polled: ending a process is not instant).
      const bound = Date.now() + 60_000
      while (isRunning(looping) && Date.now() < bound) await new Promise((resolve) => setTimeout(resolve, 100))
      expect(isRunning(looping)).toBe(false)
    } finally {
      // Whatever failed above, the CLI (looping itself, before the fix) does not outlive the test.
      if (spawned.exitCode === null && spawned.signalCode === null) spawned.kill("SIGKILL")
    }
  })

  it.skipIf(!opencode.binary)(
    "grades a case file's RegExp and predicate in an engine, with clean --json and the gate closed for a broken file",
    { timeout: 400_000 },
    async () => {
      const pids = path.join(home.root, "pids.txt")
      const project = makeProject("ordinary", {
        ".opencode/tools/weather.ts": weatherTool,
        ".opencode/evals/weather.ts": ordinaryCases(pids),
        ".opencode/evals/_cities.ts": `export const cities: string[] = ["Paris", "Rome"]\n`,
        ".opencode/evals/exits.js": `process.exit(3)\nexport default []\n`,
      })
      mkdirSync(path.join(project, "node_modules", "@opencode-ai"), { recursive: true })
      symlinkSync(
        path.join(workspace, "packages", "plugin"),
        path.join(project, "node_modules", "@opencode-ai", "plugin"),
        "junction",
      )
      const result = await runCli(
        ["eval", "--threshold", "0", "--json", "--no-history", "--opencode", opencode.binary!],
        { cwd: project, home: path.join(home.root, "home"), env: evalEnvironment() },
      )
      // The broken file is a problem: the gate fails even at --threshold 0.
      expect(result.exitCode, result.stderr).toBe(1)
      const report = JSON.parse(result.stdout) as {
        run: { results: Array<{ case: string; passed: number; runs: number; trials: Array<{ grade: unknown }> }> }
        problems: Array<{ code: string; message: string }>
      }
      expect(report.problems).toEqual([
        {
          code: "EVAL_CASE_INVALID",
          message: `${path.join(".opencode", "evals", "exits.js")}: it ended the process while it was imported (process.exit(3)): remove the process.exit call; its cases are left out`,
        },
      ])
      const byCase = new Map(report.run.results.map((entry) => [entry.case, entry]))
      expect(byCase.get("paris by pattern")).toMatchObject({ passed: 1, runs: 1 })
      expect(byCase.get("oslo is not known")).toMatchObject({ passed: 0, runs: 1 })
      expect(byCase.get("oslo is not known")!.trials[0]!.grade).toEqual({
        pass: false,
        reasons: [
          'expected weather({city: isKnownCity}); called weather({city: "Oslo"}) (city: expected isKnownCity, got "Oslo")',
        ],
      })
      // Imported (to read the cases, then to grade) and the predicate run, never in eval's own process.
      const lines = readFileSync(pids, "utf8").trim().split("\n")
      expect(lines.filter((line) => line.startsWith("import ")).length).toBe(2)
      expect(lines.filter((line) => line.startsWith("predicate ")).length).toBeGreaterThan(0)
      for (const line of lines) expect(Number(line.split(" ")[1])).not.toBe(process.pid)
    },
  )
})
