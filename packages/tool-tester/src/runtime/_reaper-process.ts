// The reaper: a small watchdog process that reaper.ts starts beside a process that has something
// to clean up (dist/engine/reaper-process.js, bundled by scripts/bundle.mjs). It reads what to end from
// its stdin, one JSON line per change (`{"id":1,"leftovers":{...}}` sets, `{"id":1}` forgets),
// and when that pipe closes (its parent ended, by any means: SIGKILL included, or TerminateProcess
// on Windows, which closes the parent's handles too) it ends what is left (leftovers.ts) and exits.
import type { Leftovers } from "./leftovers.ts"
import { endLeftovers } from "./leftovers.ts"

// Started with --away (by a process that is itself ended with its tree: an engine), this one only
// starts the reaper (stdin, the pipe, passed on, and the arguments after --away) and exits: the
// reaper, its parent gone, is then no descendant of the engine, and ending the engine's tree does
// not end it.
if (process.argv[2] === "--away") {
  const { spawn } = process.getBuiltinModule("node:child_process")
  const script = process.argv[1]!
  const bunFlags = typeof process.versions.bun === "string" ? ["--no-install"] : []
  spawn(process.execPath, [...bunFlags, script, ...process.argv.slice(3)], {
    stdio: ["inherit", "ignore", "ignore"],
    detached: process.platform !== "win32",
    windowsHide: true,
  }).unref()
  process.exit(0)
}

const left = new Map<number, Leftovers>()
let text = ""
let ended = false

function endAll(): void {
  if (ended) return
  ended = true
  for (const leftovers of left.values()) endLeftovers(leftovers)
  process.exit(0)
}

function apply(line: string): void {
  try {
    const change = JSON.parse(line) as { id: number; leftovers?: Leftovers }
    if (change.leftovers === undefined) left.delete(change.id)
    else left.set(change.id, change.leftovers)
  } catch {}
}

process.stdin.setEncoding("utf8")
process.stdin.on("data", (chunk: string) => {
  text += chunk
  for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n")) {
    apply(text.slice(0, end))
    text = text.slice(end + 1)
  }
})
process.stdin.on("end", endAll)
process.stdin.on("close", endAll)
process.stdin.on("error", endAll)
// A Ctrl-C or a hang-up reaches the parent too, which decides; the pipe says when it is gone.
process.on("SIGINT", () => {})
process.on("SIGHUP", () => {})
process.on("SIGTERM", endAll)

// `--guards PID`: the process whose pipe this is. Its end closes the pipe, unless another process
// holds the pipe's end too (a handle inherited by a process it started; under Wine, a pipe whose
// end was never seen closing left a reaper, and the command's output with it, for ten minutes):
// so it is also looked for once a second, and its end seen either way ends what is left.
const guardsAt = process.argv.indexOf("--guards")
const guards = guardsAt === -1 ? Number.NaN : Number(process.argv[guardsAt + 1])
if (Number.isSafeInteger(guards) && guards > 0) {
  setInterval(() => {
    if (!running(guards)) endAll()
  }, 1_000)
}

/** Whether process `pid` exists (one of another user's exists too: only ESRCH says it does not). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as { code?: unknown }).code !== "ESRCH"
  }
}
