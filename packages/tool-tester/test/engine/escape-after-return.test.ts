// A call waits for errors that escape after it returned only when it left work behind
// (src/runtime/pending-work.ts): these tools each leave one behind in a way a watcher could miss (a
// setTimeout kept at import, node:timers' named export, timers/promises, an unref'd timer, a chain
// of promise jobs that sets its timer after the return, a timer started again, built-ins broken
// while the timer is set), and each escape must still be listed on its own call, the first and the
// second time, under both engines (docs/opencode-contract.md#escaped-errors). A call that leaves
// nothing behind lists nothing.
import { spawn } from "node:child_process"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { type CliResult, collectOutput, packageRoot, useTmpDir } from "../helpers.ts"
import { isolatedHome } from "../support/isolated-home.ts"

const project = path.join(packageRoot, "test", "fixtures", "escape-after-return")
const script = path.join(packageRoot, "test", "support", "escaped-errors-calls.mjs")

const LEFT_BEHIND = [
  "captured_timer",
  "named_import_timer",
  "promised_timer",
  "unref_timer",
  "immediate",
  "late_microtask_timer",
  "refreshed_timer",
  "tampered_builtins",
]

/** Each tool called twice in one process by the library (test/support/escaped-errors-calls.mjs). */
async function callEach(engine: "bun" | "node", tools: string[]): Promise<Array<Record<string, unknown>>> {
  const home = useTmpDir("tool-tester-home-")
  const inherited = Object.entries(process.env).filter(
    ([key]) => !key.startsWith("OPENCODE_") && key !== "NODE_OPTIONS",
  )
  const env = { ...Object.fromEntries(inherited), ...isolatedHome(home) }
  const result: CliResult = await collectOutput(
    spawn(process.execPath, [script, project, engine, ...tools], { cwd: packageRoot, env }),
  )
  expect(result.exitCode, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as Array<Record<string, unknown>>
}

const listed = (tool: string) => {
  const kind = tool === "promised_timer" ? "unhandledRejection" : "uncaughtException"
  return [{ kind, message: `Error: escaped ${tool}` }]
}

describe.each(["bun", "node"] as const)("work a call left behind (%s engine)", { timeout: 120_000 }, (engine) => {
  test("each escape from it is listed on its own call, every time", async () => {
    const results = await callEach(engine, [...LEFT_BEHIND, "nothing_left"])
    expect(
      results.map(({ name, round, status, output, escapedErrors, error }) => ({
        name,
        round,
        status,
        output,
        escapedErrors,
        error,
      })),
    ).toEqual(
      [...LEFT_BEHIND, "nothing_left"].flatMap((name) =>
        [1, 2].map((round) => ({
          name,
          round,
          status: "completed",
          output: "returned",
          escapedErrors: name === "nothing_left" ? null : listed(name),
          error: null,
        })),
      ),
    )
  })
})

test("under the node engine, a file read left running is work left behind too", { timeout: 120_000 }, async () => {
  const results = await callEach("node", ["file_callback", "nothing_left"])
  expect(results.map(({ name, escapedErrors }) => ({ name, escapedErrors }))).toEqual([
    { name: "file_callback", escapedErrors: listed("file_callback") },
    { name: "file_callback", escapedErrors: listed("file_callback") },
    { name: "nothing_left", escapedErrors: null },
    { name: "nothing_left", escapedErrors: null },
  ])
})
