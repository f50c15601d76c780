// e2e, eval, preflight and verify with --json at a terminal: the progress line is on stderr, as
// without --json and as fuzz's is (docs/cli.md#progress), and stdout is the one JSON document, byte
// for byte what it is when stderr is not a terminal; off a terminal, a run that lasts plain lines
// on stderr every 10 s, and stdout is still the same. In-process through CliIO with stderr a fake
// terminal or not; the work each command waits on (opencode, npm, the engine) is replaced by a
// stand-in that reports a phase (and, for a long run, waits on a fake clock) and gives a
// recorded-shape result, so no opencode runs.
import path from "node:path"
import { describe, expect, test, vi } from "vitest"
import type { CliIO } from "../../src/cli/_command.ts"
import { e2eCommand } from "../../src/cli/commands/e2e.ts"
import { evalCommand } from "../../src/cli/commands/eval.ts"
import { preflightCommand } from "../../src/cli/commands/preflight.ts"
import { verifyCommand } from "../../src/cli/commands/verify.ts"
import type { E2EResult } from "../../src/e2e/e2e-result.ts"
import type { EvalProjectResult, PreparedEval } from "../../src/eval/run-project.ts"
import type { PreflightReport } from "../../src/preflight/preflight.ts"
import { check } from "../../src/verify/behaviours.ts"
import type { VerifyRuns } from "../../src/verify/run-verify.ts"
import { sampleRun } from "../eval/_report-sample.ts"
import { captureIO, fixture, useTmpDir } from "../helpers.ts"

const standIn = vi.hoisted(() => ({
  verifyDiffers: false,
  /** What the stand-in does after its first phase: a long run lets the fake clock go on here. */
  working: async () => {},
}))

vi.mock("../../src/e2e/run-e2e.ts", () => ({
  runE2E: async ({ onProgress }: { onProgress?: (phase: string) => void }): Promise<E2EResult> => {
    onProgress?.("running opencode")
    await standIn.working()
    return {
      opencode: "/nonexistent/opencode",
      model: "mock/mock-model",
      tools: [{ type: "function", function: { name: "echo" } }],
      requests: [],
      calls: [],
      events: [],
      toolOutputFiles: [],
      errors: [],
      exitCode: 0,
      durationMs: 1200,
      sandbox: { project: "/tmp/p", home: "/tmp/h", data: "/tmp/h/.local/share" },
    }
  },
}))

vi.mock("../../src/eval/run-project.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/eval/run-project.ts")>()),
  prepareEval: async (directory: string): Promise<PreparedEval> => ({
    directory,
    cases: [{ name: "weather-paris", prompt: "What is the weather in Paris?", expect: {} }],
    problems: [],
    projectTools: { tools: [] } as unknown as PreparedEval["projectTools"],
    skippedCaseFiles: [],
  }),
  runEvalProject: async (options: {
    onProgress?: (phase: string) => void
    onTrial?: (trial: { case: string; model: string }) => void
  }): Promise<EvalProjectResult> => {
    options.onProgress?.("starting opencode")
    await standIn.working()
    options.onTrial?.({ case: "weather-paris", model: "keyword/model" })
    return { run: sampleRun().run, changes: new Map(), history: [], historyFile: undefined, problems: [] }
  },
}))

vi.mock("../../src/preflight/preflight.ts", () => ({
  preflight: async ({ directory, onStep }: { directory: string; onStep?: (step: string) => void }) => {
    onStep?.("packing the package with npm pack")
    await standIn.working()
    const report: PreflightReport = {
      package: { name: "opencode-weather", version: "1.0.0", directory, packer: null, files: [], entry: null },
      tools: ["weather"],
      runs: [],
      findings: [],
    }
    return report
  },
}))

vi.mock("../../src/verify/run-verify.ts", () => ({
  runVerify: async ({ onRun }: { onRun?: (progress: Record<string, unknown>) => void }): Promise<VerifyRuns> => {
    onRun?.({ done: 1, differing: 0, failed: 0, last: "naming/one" })
    await standIn.working()
    const where = { behaviour: "naming", set: "naming", run: "one", subject: "tool names" } as const
    return {
      checks: [check(where, "weather", standIn.verifyDiffers ? "Weather" : "weather")],
      failed: [],
      runs: [],
      durationMs: 1000,
      concurrency: 1,
    }
  },
}))
// verify's check that --opencode names an opencode: this Node passes it here.
vi.mock("../../src/opencode/opencode-version-check.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/opencode/opencode-version-check.ts")>()),
  opencodeVersionOf: async () => "1.18.34",
}))
vi.mock("../../src/opencode/opencode-identity.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/opencode/opencode-identity.ts")>()),
  opencodeIdentity: async () => "opencode",
}))

const ERASE_LINE = "\r\u001b[2K"

/** Runs `command` once with stderr a terminal and once without: both outputs and exit codes. */
async function bothWays(command: (io: CliIO) => Promise<number>) {
  const run = async (terminal: boolean) => {
    const { io, out, err } = captureIO()
    io.stderrIsTTY = terminal
    // As fuzz's: whether stderr is a terminal decides alone; CI and NO_COLOR change nothing.
    io.env = { CI: "true", NO_COLOR: "1" }
    const exitCode = await command(io)
    return { exitCode, stdout: out(), stderr: err() }
  }
  return { terminal: await run(true), plain: await run(false) }
}

/** stdout is one JSON document, the same at a terminal; the line was drawn on stderr and cleared. */
function expectProgressOnStderrOnly(runs: Awaited<ReturnType<typeof bothWays>>, phase: string) {
  const { terminal, plain } = runs
  expect(terminal.exitCode, terminal.stderr).toBe(plain.exitCode)
  expect(terminal.stdout).toBe(plain.stdout)
  expect(() => JSON.parse(terminal.stdout)).not.toThrow()
  expect(terminal.stdout).not.toContain("tool-tester:")
  expect(terminal.stderr).toContain(`${ERASE_LINE}tool-tester: ${phase}`)
  expect(terminal.stderr.endsWith(ERASE_LINE)).toBe(true)
  expect(plain.stderr).toBe("")
}

describe("--json at a terminal: progress on stderr, stdout only the JSON", () => {
  test("e2e", async () => {
    const basic = fixture("cli-basic")
    const script = path.join(basic, "e2e-script.json")
    const runs = await bothWays((io) => e2eCommand(["--dir", basic, "--script", script, "--json"], io))
    expect(runs.terminal.exitCode).toBe(0)
    expectProgressOnStderrOnly(runs, "running opencode")
  })

  test("eval", async () => {
    const directory = useTmpDir()
    const args = ["--dir", directory, "--model", "keyword/model", "--no-history", "--json"]
    const runs = await bothWays((io) => evalCommand(args, io))
    expect(runs.terminal.exitCode).toBe(0)
    expectProgressOnStderrOnly(runs, "1 trials done (last: weather-paris on keyword/model)")
  })

  test("preflight", async () => {
    const directory = useTmpDir()
    const runs = await bothWays((io) => preflightCommand([directory, "--engine", "node", "--json"], io))
    expect(runs.terminal.exitCode).toBe(0)
    expectProgressOnStderrOnly(runs, "packing the package with npm pack")
  })

  test("verify; a failure stays the last line of stderr, after the cleared line", async () => {
    const args = ["naming", "--opencode", process.execPath, "--json"]
    const agreeing = await bothWays((io) => verifyCommand(args, io))
    expect(agreeing.terminal.exitCode).toBe(0)
    expectProgressOnStderrOnly(agreeing, "verify: 1/")
    standIn.verifyDiffers = true
    try {
      const { terminal, plain } = await bothWays((io) => verifyCommand(args, io))
      expect(terminal.exitCode).toBe(9)
      expect(terminal.stdout).toBe(plain.stdout)
      expect(terminal.stderr).toContain(`${ERASE_LINE}tool-tester: verify: 1/`)
      const afterLine = terminal.stderr.slice(terminal.stderr.lastIndexOf(ERASE_LINE) + ERASE_LINE.length)
      expect(afterLine).toBe(plain.stderr)
      expect(JSON.parse(afterLine).error.code).toBe("VERIFY_DIFFERS")
    } finally {
      standIn.verifyDiffers = false
    }
  })
})

describe("off a terminal, a run that lasts: a plain line on stderr every 10 s, stdout as for a short run", () => {
  /** The command run short, then lasting 25 s on a fake clock: stdout and stderr of both. */
  async function shortAndLong(command: (io: CliIO) => Promise<number>) {
    const run = async () => {
      const { io, out, err } = captureIO()
      io.stderrIsTTY = false
      io.env = { CI: "true", NO_COLOR: "1" }
      const exitCode = await command(io)
      return { exitCode, stdout: out(), stderr: err() }
    }
    const short = await run()
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] })
    standIn.working = async () => {
      await vi.advanceTimersByTimeAsync(25_000)
    }
    try {
      const long = await run()
      // Once the run has ended, no line comes.
      await vi.advanceTimersByTimeAsync(60_000)
      return { short, long }
    } finally {
      standIn.working = async () => {}
      vi.useRealTimers()
    }
  }

  async function expectPlainLines(command: (io: CliIO) => Promise<number>, phase: string) {
    const { short, long } = await shortAndLong(command)
    expect(long.exitCode, long.stderr).toBe(short.exitCode)
    expect(long.stdout).toBe(short.stdout)
    expect(short.stderr).toBe("")
    expect(long.stderr).toBe(`tool-tester: ${phase}... 10s\ntool-tester: ${phase}... 20s\n`)
  }

  test("e2e", async () => {
    const basic = fixture("cli-basic")
    const script = path.join(basic, "e2e-script.json")
    await expectPlainLines((io) => e2eCommand(["--dir", basic, "--script", script, "--json"], io), "running opencode")
  })

  test("eval", async () => {
    const directory = useTmpDir()
    const args = ["--dir", directory, "--model", "keyword/model", "--no-history", "--json"]
    await expectPlainLines((io) => evalCommand(args, io), "starting opencode")
  })

  test("preflight", async () => {
    const directory = useTmpDir()
    await expectPlainLines(
      (io) => preflightCommand([directory, "--engine", "node", "--json"], io),
      "packing the package with npm pack",
    )
  })

  test("verify, without --json too", async () => {
    const phase = "verify: 1/1 probe runs done (0 differ), last naming/one"
    await expectPlainLines((io) => verifyCommand(["naming", "--opencode", process.execPath, "--json"], io), phase)
    await expectPlainLines((io) => verifyCommand(["naming", "--opencode", process.execPath], io), phase)
  })
})
