// An error that escapes a tool outside the promise execute returns, under both engines, from the
// CLI (`tool-tester run` spawned as a user runs it) and from the library (runTool): the call gets
// what opencode gave the model, and the error is listed on the result and printed on the engine's
// stderr, as opencode prints it and goes on; process.exit stays TOOL_EXITED, as it ends opencode.
// The tools are the escaped-errors probe, and what opencode did with them is its golden
// (docs/opencode-contract.md#escaped-errors).
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, onTestFinished, test, vi } from "vitest"
import type { EscapedError, RunResult, ToolProject } from "../../src/index.ts"
import { closeProject, loadTools, runTool } from "../../src/index.ts"
import { type CliResult, collectOutput, jsonError, packageRoot, runCli, useTmpDir } from "../helpers.ts"
import { isolatedEnvironment } from "../support/tmp-project.ts"
import { isolatedHome } from "../support/isolated-home.ts"

const probe = path.join(packageRoot, "probes", "escaped-errors")
const script = path.join(packageRoot, "test", "support", "escaped-errors-calls.mjs")
type GoldenRun = {
  name: string
  exitCode: number | null
  calls: Array<{ called: { name: string }; result: string | null; status: string | null }>
}
const golden = JSON.parse(readFileSync(path.join(packageRoot, "test", "golden", "escaped-errors.json"), "utf8")) as {
  runs: GoldenRun[]
}

/** What opencode gave the model for the tool's first call, and what the kit lists for the escape. */
function observed(tool: string): { output: string; status: string } {
  const call = golden.runs.find((run) => run.name === tool)?.calls[0]
  if (!call?.result || !call.status) throw new Error(`the escaped-errors golden has no result for ${tool}`)
  return { output: call.result, status: call.status }
}

/** Runs a Node script with a throw-away HOME and XDG folders, as runCli runs the bin. */
function runNode(args: string[]): Promise<CliResult> {
  const home = useTmpDir("tool-tester-home-")
  const inherited = Object.entries(process.env).filter(
    ([key]) => !key.startsWith("OPENCODE_") && key !== "NODE_OPTIONS",
  )
  const env = {
    ...Object.fromEntries(inherited),
    ...isolatedHome(home),
  }
  return collectOutput(spawn(process.execPath, args, { cwd: packageRoot, env }))
}

const ESCAPES: Record<string, EscapedError> = {
  reject_during: { kind: "unhandledRejection", message: "Error: rejected during execute" },
  async_unawaited: { kind: "unhandledRejection", message: "Error: thrown by an async function nobody awaited" },
  reject_after: { kind: "unhandledRejection", message: "Error: rejected after execute returned" },
  timer_throw_during: { kind: "uncaughtException", message: "Error: thrown in a timer during execute" },
  timer_throw_after: { kind: "uncaughtException", message: "Error: thrown in a timer after execute returned" },
  emitter_error: { kind: "uncaughtException", message: "Error: emitted with no error listener" },
}

test("the golden holds every case this file checks, as opencode went on with each", () => {
  expect(golden.runs.map((run) => run.name).sort()).toEqual(
    [...Object.keys(ESCAPES), "emitter_error_sync", "exit_three"].sort(),
  )
  // Two calls of the tool and two of wait_ok, all answered: the session went on.
  for (const name of Object.keys(ESCAPES)) {
    const run = golden.runs.find((candidate) => candidate.name === name)!
    expect(
      run.calls.map((call) => [call.called.name, call.status]),
      name,
    ).toEqual([
      [name, "completed"],
      ["wait_ok", "completed"],
      [name, "completed"],
      ["wait_ok", "completed"],
    ])
  }
  expect(golden.runs.find((run) => run.name === "exit_three")).toMatchObject({
    exitCode: 3,
    calls: [{ result: null, status: null }],
  })
})

describe.each(["bun", "node"] as const)("an error that escapes a tool (%s engine)", { timeout: 120_000 }, (engine) => {
  const cli = (tool: string, json = true) =>
    runCli(["run", tool, "--dir", probe, "--no-global", "--engine", engine, ...(json ? ["--json"] : [])])

  test.each(Object.entries(ESCAPES))(
    "tool-tester run %s: exit 0, the output opencode gave, the error listed",
    async (tool, escaped) => {
      const result = await cli(tool)
      expect(result.exitCode, result.stderr).toBe(0)
      const json = JSON.parse(result.stdout) as RunResult & { console: { stderr: string } }
      expect({ status: json.status, output: json.output }).toEqual(observed(tool))
      expect(json.escapedErrors).toEqual([escaped])
      // Printed on stderr as the runtime prints it (in Bun, what opencode prints), kept with the tool's console.
      expect(json.console.stderr).toContain(escaped.message.replace(/^Error: /, ""))
    },
  )

  test("the human report shows the escaped error as a warning beside the output", async () => {
    const result = await cli("reject_during", false)
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain("returned after a rejection during execute")
    expect(result.stdout).toMatch(
      /escaped\s+Error: rejected during execute: a promise the tool left to reject; opencode prints it on stderr and keeps the call's result: await it or add a \.catch/,
    )
  })

  test("an error event emitted inside execute is an ordinary throw: exit 4, TOOL_THREW", async () => {
    const result = await cli("emitter_error_sync")
    expect(result.exitCode).toBe(4)
    const json = JSON.parse(result.stdout) as RunResult
    expect({ status: json.status, output: json.output }).toEqual(observed("emitter_error_sync"))
    expect(json.escapedErrors).toBeUndefined()
    expect(jsonError(result).code).toBe("TOOL_THREW")
  })

  test("process.exit still ends the run with TOOL_EXITED (exit 4): it ends opencode", async () => {
    const result = await cli("exit_three")
    expect(result.exitCode).toBe(4)
    expect(JSON.parse(result.stdout)).toMatchObject({ status: "error", error: { code: "TOOL_EXITED" } })
    expect(jsonError(result).message).toContain("process.exit(3)")
  })

  test("runTool: each case twice, with the output opencode gave and the error listed, in one process", async () => {
    // A script of its own: under the node engine the tools run in the caller's process, where this
    // test runner would take what escapes for its own unhandled error.
    const tools = [...Object.keys(ESCAPES), "wait_ok"]
    const { exitCode, stdout, stderr } = await runNode([script, probe, engine, ...tools])
    expect(exitCode, stderr).toBe(0)
    const results = JSON.parse(stdout) as Array<{ name: string; round: number } & Record<string, unknown>>
    expect(results.map(({ name, round }) => `${name} #${round}`)).toEqual(
      tools.flatMap((tool) => [`${tool} #1`, `${tool} #2`]),
    )
    for (const { name, round, ...result } of results) {
      const expected =
        name === "wait_ok"
          ? { status: "completed", output: "still running", escapedErrors: null }
          : { ...observed(name), escapedErrors: [ESCAPES[name]] }
      expect(result, `${name} #${round}`).toEqual({ ...expected, error: null })
    }
    // Printed on stderr as opencode prints it: the engine's stderr, or this process's own.
    for (const { message } of Object.values(ESCAPES)) expect(stderr).toContain(message.replace(/^Error: /, ""))
  })
})

// Under the node engine the library runs tools in its caller's process (here, vitest's worker,
// which turns process.exit into an error of its own wording): the call catches it itself.
test("runTool under the node engine, inside vitest: process.exit is TOOL_EXITED with its code, as under the engines", async () => {
  const { env, home } = isolatedEnvironment()
  const project: ToolProject = await loadTools({ directory: probe, env, home, engine: "node" })
  onTestFinished(() => closeProject(project))
  const vitestExit = process.exit
  const exited = await runTool(project, "exit_three", {})
  const message =
    "the tool ended its process with process.exit(3); under opencode that stops opencode itself: throw an Error instead"
  expect(exited).toMatchObject({
    status: "error",
    output: message,
    title: null,
    error: { code: "TOOL_EXITED", message },
  })
  expect(exited.escapedErrors).toBeUndefined()
  // process.exit is vitest's again once the call is over, and the project still answers.
  expect(process.exit).toBe(vitestExit)
  expect(await runTool(project, "wait_ok", {})).toMatchObject({ status: "completed", output: "still running" })
})

test("runTool under the bun engine: process.exit is TOOL_EXITED and the next call gets a new engine", {
  timeout: 120_000,
}, async () => {
  const { env, home } = isolatedEnvironment()
  // The escaped error is printed on the engine's stderr, which reaches this process's console.error.
  const printed = vi.spyOn(console, "error").mockImplementation(() => {})
  const project: ToolProject = await loadTools({ directory: probe, env, home, engine: "bun" })
  onTestFinished(() => closeProject(project))
  const exited = await runTool(project, "exit_three", {})
  expect(exited).toMatchObject({ status: "error", error: { code: "TOOL_EXITED" } })
  expect(exited.output).toContain("process.exit(3)")
  expect(await runTool(project, "reject_during", {})).toMatchObject({
    status: "completed",
    escapedErrors: [ESCAPES["reject_during"]],
  })
  await expect.poll(() => printed.mock.calls.join("\n")).toContain("rejected during execute")
})
