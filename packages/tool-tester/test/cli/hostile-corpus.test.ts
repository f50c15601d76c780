// The hostile corpus: every project in test/fixtures/hostile/ goes through list, schema, doctor and
// run, under both engines, and must get what docs/cli.md promises: one JSON document on stdout
// where the contract says so (else one JSON failure line on stderr), the documented code and exit
// status, and no process left behind.
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { processesWithEnvironment } from "../../src/runtime/process-tree.ts"
// The built bin, not runCli: these tests run concurrently, and in-process command lines run one
// at a time (each has the process's environment and working directory), so their bounds would overlap.
import { fixture, runBin as runCli } from "../helpers.ts"
import { isRunning } from "../support/processes.ts"

type Outcome = {
  exit: number
  /** The failure code on stderr (and in `result.error`, unless `completed`: the call ran, another file failed). */
  code?: string
  completed?: boolean
  /** Whether stdout holds the command's JSON document (a failure before it prints only stderr's line). */
  stdout: boolean
  /** For run: the model's text. */
  output?: string | RegExp
  /** For run: the one error that escaped the tool (listed on the result, the call not failed). */
  escaped?: RegExp
}
type Case = {
  /** list and schema. */
  load: Outcome
  /** doctor, when it differs from list (it reports a config it cannot read as a finding). */
  doctor?: Outcome
  runs: Record<string, Outcome>
  /** Engines to run it under, when not both (see the test below it for why). */
  engines?: ReadonlyArray<(typeof ENGINES)[number]>
}

const ENGINES = ["bun", "node"] as const
const LOADS: Outcome = { exit: 0, stdout: true }
const configInvalid: Case = {
  load: { exit: 3, code: "CONFIG_INVALID", stdout: false },
  doctor: { exit: 3, code: "CONFIG_INVALID", stdout: true },
  runs: { lines: { exit: 3, code: "CONFIG_INVALID", stdout: false } },
}

const CASES: Record<string, Case> = {
  "replaces-json-stringify": {
    load: LOADS,
    runs: { replaces_json_stringify: { exit: 4, code: "TOOL_TAMPERED", stdout: true } },
  },
  "sets-object-tojson": { load: LOADS, runs: { sets_object_tojson: { exit: 4, code: "TOOL_TAMPERED", stdout: true } } },
  "replaces-array-map": { load: LOADS, runs: { replaces_array_map: { exit: 4, code: "TOOL_TAMPERED", stdout: true } } },
  "replaces-array-iterator": {
    load: LOADS,
    runs: {
      replaces_array_iterator: {
        exit: 4,
        code: "TOOL_TAMPERED",
        stdout: true,
        output: /%ArrayIteratorPrototype%\.next/,
      },
    },
  },
  "deep-metadata": { load: LOADS, runs: { deep_metadata: { exit: 0, stdout: true, output: "deep" } } },
  // opencode prints what escapes and goes on with what the tool returned (docs/opencode-contract.md#escaped-errors).
  "throws-after-return": {
    load: LOADS,
    runs: {
      throws_after_return: { exit: 0, stdout: true, output: "returned", escaped: /thrown just after returning/ },
    },
  },
  "rejects-after-return": {
    load: LOADS,
    runs: {
      rejects_after_return: { exit: 0, stdout: true, output: "returned", escaped: /rejected just after returning/ },
    },
  },
  "leaves-a-child": { load: LOADS, runs: { leaves_a_child: { exit: 0, stdout: true } } },
  // Each command checks that no process carrying its marker is left: these left the group.
  "detaches-children": { load: LOADS, runs: { detaches_children: { exit: 0, stdout: true, output: "started" } } },
  // Under opencode this ends opencode mid-call; e2e.test.ts checks that e2e says so.
  "exits-zero": {
    load: LOADS,
    // doctor's one call of it finds that it would end opencode.
    doctor: { exit: 3, code: "ENDS_OPENCODE", stdout: true },
    runs: { exits_zero: { exit: 4, code: "TOOL_EXITED", stdout: true } },
  },
  // Node ends a thread stuck on a top-level await at once; the bun engine waits out the 60 s load
  // bound, tested once below.
  "surrogate-at-write-boundary": { load: LOADS, runs: { surrogate_at_boundary: { exit: 0, stdout: true } } },
  "blocks-its-output-folder": { load: LOADS, runs: { blocks_output_folder: { exit: 0, stdout: true } } },
  "terminal-escapes": { load: LOADS, runs: { terminal_escapes: { exit: 0, stdout: true } } },
  // A file symlink loop fails the whole tool list in opencode (observed): exit 3, reports still printed.
  "symlink-loop-files": {
    load: { exit: 3, code: "IMPORT_FAILED", stdout: true },
    runs: { fine: { exit: 3, code: "IMPORT_FAILED", stdout: true, completed: true, output: "fine" } },
  },
  "symlink-loop-folder": { load: LOADS, runs: { fine: { exit: 0, stdout: true, output: "fine" } } },
  // A thrown value or args whose every read throws (a hostile Proxy): named, never INTERNAL.
  "throws-a-proxy": {
    load: LOADS,
    // opencode 1.18.34's run ends with the trap's error (test/opencode-copy.test.ts): doctor's
    // smoke call finds that.
    doctor: { exit: 3, code: "BAD_RESULT", stdout: true },
    runs: {
      throws_a_proxy: { exit: 4, code: "TOOL_BAD_RESULT", stdout: true, output: /opencode's run ended with "trap"/ },
    },
  },
  "args-a-proxy": {
    load: { exit: 3, code: "SCHEMA_UNREPRESENTABLE", stdout: true },
    runs: { args_a_proxy: { exit: 3, code: "SCHEMA_UNREPRESENTABLE", stdout: true, completed: true } },
  },
  // Built-ins the pipeline itself uses after the tool returns: reported, and put back first.
  "replaces-settimeout": {
    load: LOADS,
    runs: { replaces_settimeout: { exit: 4, code: "TOOL_TAMPERED", stdout: true, output: /globalThis\.setTimeout/ } },
  },
  "replaces-promise": {
    load: LOADS,
    runs: { replaces_promise: { exit: 4, code: "TOOL_TAMPERED", stdout: true, output: /globalThis\.Promise/ } },
  },
  "replaces-process": {
    load: LOADS,
    runs: { replaces_process: { exit: 4, code: "TOOL_TAMPERED", stdout: true, output: /globalThis\.process/ } },
  },
  "deletes-process": {
    load: LOADS,
    runs: { deletes_process: { exit: 4, code: "TOOL_TAMPERED", stdout: true, output: /globalThis\.process/ } },
  },
  "then-getter": {
    load: LOADS,
    runs: { then_getter: { exit: 4, code: "TOOL_TAMPERED", stdout: true, output: /Object\.prototype\.then/ } },
  },
  "tool-output-zero": configInvalid,
  "tool-output-negative": configInvalid,
  "tool-output-string": configInvalid,
  "tool-output-fraction": configInvalid,
}

const hostile = fixture("hostile")

/** Fixtures with tests of their own below, rather than a corpus case. */
const OWN_TESTS = ["tla-never-settles"]

test("every hostile fixture has its expectations here", () => {
  expect(readdirSync(hostile).sort()).toEqual([...Object.keys(CASES), ...OWN_TESTS].sort())
})

// The cases are independent (each command gets its own TMPDIR and marker), and most of their time
// is waiting for processes: they run concurrently, which keeps the suite's wall time down.
describe.each(ENGINES)("the hostile corpus under the %s engine", { timeout: 120_000, concurrent: true }, (engine) => {
  for (const [name, expected] of Object.entries(CASES)) {
    if (expected.engines && !expected.engines.includes(engine)) continue
    const directory = path.join(hostile, name)
    const cli = async (args: string[]) => {
      const marker = `hostile-${engine}-${name}-${Math.random().toString(36).slice(2)}`
      // Made and removed here, not with onTestFinished: these tests run concurrently.
      const tmp = mkdtempSync(path.join(os.tmpdir(), "tool-tester-corpus-"))
      const home = mkdtempSync(path.join(os.tmpdir(), "tool-tester-corpus-home-"))
      try {
        const result = await runCli([...args, "--dir", directory, "--no-global", "--json", "--engine", engine], {
          env: { TOOL_TESTER_CORPUS_MARKER: marker, TMPDIR: tmp },
          home,
        })
        // Nothing the command started is still running, and it wrote only where it may: the
        // default data folder and the node engine's module cache.
        expect(processesMarked(marker), `${args.join(" ")} left processes behind`).toEqual([])
        const allowed = ["opencode-tool-tester", `opencode-tool-tester-${process.getuid?.() ?? "user"}`]
        expect(readdirSync(tmp).filter((entry) => !allowed.includes(entry))).toEqual([])
        return result
      } finally {
        rmSync(tmp, { recursive: true, force: true })
        rmSync(home, { recursive: true, force: true })
      }
    }
    const check = (result: Awaited<ReturnType<typeof cli>>, outcome: Outcome) => {
      expect(result.exitCode, result.stderr).toBe(outcome.exit)
      if (outcome.code) expect(lastJsonLine(result.stderr).error.code).toBe(outcome.code)
      if (!outcome.stdout) {
        expect(result.stdout).toBe("")
        return undefined
      }
      return oneJsonDocument(result.stdout) as {
        output?: string
        error?: { code: string }
        escapedErrors?: Array<{ message: string }>
      }
    }

    for (const command of ["list", "schema", "doctor"]) {
      test(`${name}: ${command}`, async () => {
        check(await cli([command]), command === "doctor" ? (expected.doctor ?? expected.load) : expected.load)
      })
    }

    for (const [tool, run] of Object.entries(expected.runs)) {
      test(`${name}: run ${tool}`, async () => {
        const json = check(await cli(["run", tool]), run)
        if (!json) return
        if (run.code && !run.completed) expect(json.error?.code).toBe(run.code)
        if (typeof run.output === "string") expect(json.output).toBe(run.output)
        if (run.output instanceof RegExp) expect(json.output).toMatch(run.output)
        const escaped = json.escapedErrors?.map((error) => error.message) ?? []
        if (run.escaped) expect(escaped).toEqual([expect.stringMatching(run.escaped)])
        else expect(escaped).toEqual([])
      })
    }
  }

  test("deep metadata is cut with a marker, not a stack overflow", async () => {
    const result = await runInOwnHome(["run", "deep_metadata", "--dir", path.join(hostile, "deep-metadata")], engine)
    expect(result.stdout).toContain("[cut: deeper than 100 levels]")
  })

  test("fuzz of a tool whose children detach leaves none of them running", async () => {
    const marker = `hostile-fuzz-${engine}-${Math.random().toString(36).slice(2)}`
    const home = mkdtempSync(path.join(os.tmpdir(), "tool-tester-corpus-home-"))
    try {
      const directory = path.join(hostile, "detaches-children")
      const result = await runCli(
        ["fuzz", "detaches_children", "--runs", "10", "--dir", directory, "--no-global", "--json", "--engine", engine],
        { env: { TOOL_TESTER_CORPUS_MARKER: marker }, home },
      )
      expect(result.exitCode, result.stderr).toBe(0)
      expect(processesMarked(marker)).toEqual([])
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })

  test("a child process the tool did not wait for is gone once run exits", async ({ expect }) => {
    const result = await runInOwnHome(["run", "leaves_a_child", "--dir", path.join(hostile, "leaves-a-child")], engine)
    const pid = Number((JSON.parse(result.stdout) as { output: string }).output)
    await expect.poll(() => isRunning(pid), { timeout: 10_000 }).toBe(false)
  })
})

// opencode waits forever for such a file; both engines wait for the load's bound, then name it.
// The bound is set to 20 s rather than waiting out the default minute: enough for an engine to
// start and reach the file on a loaded machine (within 2 s at load average 15 on 2 cores, and the
// test passed with 10 s at load average 28), and the message says which bound.
test.concurrent.each(["bun", "node"])(
  "%s engine: a top-level await that never settles fails the load at its bound, naming the file",
  {
    timeout: 240_000,
  },
  async (engine) => {
    const directory = path.join(hostile, "tla-never-settles")
    const result = await runInOwnHome(["list", "--dir", directory], engine, { TOOL_TESTER_LOAD_TIMEOUT_MS: "20000" })
    expect(result.exitCode).toBe(5)
    const error = lastJsonLine(result.stderr).error
    expect(error.code).toBe("TOOL_TIMEOUT")
    expect(error.message).toContain(path.join(directory, ".opencode/tools/stuck.ts"))
    expect(error.message).toContain("did not finish within 20000 ms")
  },
)

test("a load bound that is not a whole number of milliseconds is a USAGE line (exit 1)", async () => {
  const directory = path.join(hostile, "tla-never-settles")
  const result = await runInOwnHome(["list", "--dir", directory], "node", { TOOL_TESTER_LOAD_TIMEOUT_MS: "10s" })
  expect(result.exitCode).toBe(1)
  expect(result.stdout).toBe("")
  const error = lastJsonLine(result.stderr).error
  expect(error.code).toBe("USAGE")
  expect(error.message).toContain('TOOL_TESTER_LOAD_TIMEOUT_MS is "10s"')
})

// --- helpers ---

/** runCli with a home folder made and removed here: onTestFinished cannot tell concurrent tests apart. */
async function runInOwnHome(args: string[], engine: string, env: Record<string, string> = {}) {
  const home = mkdtempSync(path.join(os.tmpdir(), "tool-tester-corpus-home-"))
  try {
    return await runCli([...args, "--no-global", "--json", "--engine", engine], { home, env })
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}

function oneJsonDocument(stdout: string): unknown {
  const lines = stdout.split("\n").filter((line) => line !== "")
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0]!)
}

function lastJsonLine(stderr: string): { error: { code: string; message: string } } {
  const lines = stderr.trim().split("\n")
  return JSON.parse(lines.at(-1)!) as { error: { code: string; message: string } }
}

/** Live processes started with the marker in their environment (/proc on Linux, `ps` on macOS), as the shared cleanup finds them. */
function processesMarked(marker: string): number[] {
  return processesWithEnvironment([`TOOL_TESTER_CORPUS_MARKER=${marker}`], { exact: true })
}
