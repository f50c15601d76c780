// A call waits for errors that escape after it returned only when it left work behind
// (src/runtime/pending-work.ts): these tools each leave one behind in a way a watcher could miss (a
// setTimeout kept at import, node:timers' named export, timers/promises, an unref'd timer, a chain
// of promise jobs that sets its timer after the return, a timer started again, built-ins broken
// while the timer is set), and each escape must still be listed on its own call, the first and the
// second time, under both engines (docs/opencode-contract.md#escaped-errors). A call that leaves
// nothing behind lists nothing.
import { execFileSync, spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { type CliResult, collectOutput, packageRoot, useTmpDir } from "../helpers.ts"
import { isolatedHome } from "../support/isolated-home.ts"
import { tmpProject } from "../support/tmp-project.ts"

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
async function callEach(
  engine: "bun" | "node",
  tools: string[],
  options: { directory?: string; env?: Record<string, string>; started?: () => void } = {},
): Promise<Array<Record<string, unknown>>> {
  const home = useTmpDir("tool-tester-home-")
  const inherited = Object.entries(process.env).filter(
    ([key]) => !key.startsWith("OPENCODE_") && key !== "NODE_OPTIONS",
  )
  const env = { ...Object.fromEntries(inherited), ...isolatedHome(home), ...options.env }
  const child = spawn(process.execPath, [script, options.directory ?? project, engine, ...tools], {
    cwd: packageRoot,
    env,
  })
  options.started?.()
  const result: CliResult = await collectOutput(child)
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

// A read the thread pool finishes late (here a FIFO written 300 ms after the call started; on a
// loaded machine, any file) ends after every fixed wait: the call waits for it, so its escape is
// listed on its own call and not on the next.
test.skipIf(process.platform === "win32")(
  "under the node engine, a file read that ends late is waited for: its escape is listed on its own call (POSIX: mkfifo)",
  { timeout: 120_000 },
  async () => {
    const folder = useTmpDir("tool-tester-fifo-")
    const fifo = path.join(folder, "slow")
    const mark = path.join(folder, "calls")
    execFileSync("mkfifo", [fifo])
    const directory = tmpProject({
      ".opencode/tools/slow_read.ts": `import { appendFileSync, readFile } from "node:fs"
export default {
  description: "Starts a read of a FIFO whose callback throws",
  args: {},
  async execute() {
    appendFileSync(process.env.SLOW_MARK, "x")
    readFile(process.env.SLOW_FIFO, () => {
      throw new Error("escaped slow_read")
    })
    return "returned"
  },
}
`,
      ".opencode/tools/after.ts": `export default { description: "Leaves nothing", args: {}, async execute() { return "after" } }\n`,
    })
    // Each round's read waits for a writer: written 300 ms after that round's call started.
    const writes = async () => {
      for (const round of [1, 2]) {
        await expect
          .poll(() => (existsSync(mark) ? readFileSync(mark, "utf8").length : 0), { timeout: 60_000, interval: 20 })
          .toBeGreaterThanOrEqual(round)
        await new Promise((resolve) => setTimeout(resolve, 300))
        await writeFile(fifo, "x")
      }
    }
    let writing: Promise<void> | undefined
    const results = await callEach("node", ["slow_read", "after"], {
      directory,
      env: { SLOW_FIFO: fifo, SLOW_MARK: mark },
      started: () => {
        writing = writes()
      },
    })
    await writing
    expect(results.map(({ name, escapedErrors }) => ({ name, escapedErrors }))).toEqual([
      { name: "slow_read", escapedErrors: listed("slow_read") },
      { name: "slow_read", escapedErrors: listed("slow_read") },
      { name: "after", escapedErrors: null },
      { name: "after", escapedErrors: null },
    ])
  },
)
