// Nothing a process started outlives it, whatever ends it. What it must end (leftovers.ts) is
// guarded here: guard() records it, release() forgets it once it is ended. This process ends
// what is guarded itself when it can: at exit, and from the CLI's signal handlers (endGuarded).
// When it cannot (SIGKILL, a crash; a library user's test process killed), its reaper does: a
// watchdog process (_reaper-process.ts), started on the first guard() (a command that starts
// nothing starts no reaper), that holds a pipe from this process and ends what is guarded when
// the pipe closes. The reaper is detached (POSIX: a process group and session of its own, so a
// Ctrl-C or a hang-up that ends this process's group does not end it first), runs in this
// process's runtime (Node, or Bun: BUN_BE_BUN makes opencode's executable a Bun), with the few
// environment variables it needs: no engine mark, so endMarked never ends it.
import type { ChildProcess } from "node:child_process"
import os from "node:os"
import { inBun } from "./here.ts"
import type { Leftovers } from "./leftovers.ts"
import { endLeftovers } from "./leftovers.ts"
import { ENGINE_MARK } from "./process-tree.ts"
import { REAPER_ENTRY } from "./runtime-files.ts"

export type { Leftovers } from "./leftovers.ts"

/** What guard() returns: change what is guarded (a process that ended leaves only its group), or forget it. */
export type Guard = {
  replace(leftovers: Leftovers): void
  release(): void
}

/** Guards `leftovers` until released: ended at this process's exit, or by its reaper if it dies. */
export function guard(leftovers: Leftovers): Guard {
  const id = nextId++
  guarded.set(id, leftovers)
  if (!exitHooked) {
    exitHooked = true
    process.once("exit", endGuarded)
  }
  tell(id, leftovers)
  return {
    replace: (next) => {
      if (!guarded.has(id)) return
      guarded.set(id, next)
      tell(id, next)
    },
    release: () => {
      if (guarded.delete(id)) tell(id, undefined)
    },
  }
}

/** Ends everything guarded, now, in this process (its exit, or a signal handler before it exits). */
export function endGuarded(): void {
  for (const [id, leftovers] of [...guarded]) {
    guarded.delete(id)
    endLeftovers(leftovers)
    tell(id, undefined)
  }
}

// --- internal ---

const guarded = new Map<number, Leftovers>()
let nextId = 1
let exitHooked = false
let reaper: ChildProcess | undefined
/** The pipe to the reaper: its end, when this process ends, is what the reaper waits for. */
let reaperPipe: NodeJS.WritableStream | undefined
/** Reapers started so far: one that cannot start (or keeps dying) is not started forever. */
let starts = 0
const MAX_STARTS = 3
const REAPER_ENVIRONMENT = new Set(["PATH", "PATHEXT", "SYSTEMROOT", "WINDIR", "COMSPEC", "TMPDIR", "TEMP", "TMP"])

function tell(id: number, leftovers: Leftovers | undefined): void {
  if (reaper === undefined) {
    // Nothing to guard, nothing to start: a reaper starts for what needs it, with all of it.
    if (leftovers === undefined || starts >= MAX_STARTS) return
    startReaper()
    return
  }
  write(id, leftovers)
}

function write(id: number, leftovers: Leftovers | undefined): void {
  try {
    reaperPipe?.write(`${JSON.stringify(leftovers === undefined ? { id } : { id, leftovers })}\n`)
  } catch {}
}

function startReaper(): void {
  starts++
  // What finding and ending processes needs (ps, taskkill and PowerShell on the PATH; Windows' own
  // folders), and no more: not the user's keys, nor a mark (endMarked must not end the reaper with
  // the engine it watches, nor a test take it for something a run left).
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && value !== "" && REAPER_ENVIRONMENT.has(key.toUpperCase())) env[key] = value
  }
  if (inBun) env["BUN_BE_BUN"] = "1"
  // An engine (it carries a mark) is ended with everything below it: its reaper must not be below
  // it. (Not in Bun: Bun closes a child's stdin when it exits, and the pipe with it, so the bun
  // engine's reaper stays below it and is ended with it. What an engine makes to last a while is
  // therefore in its temporary folder (engine-temp.ts), which the process that started it removes.)
  const away = process.env[ENGINE_MARK] === undefined || inBun ? [] : ["--away"]
  let child: ChildProcess
  try {
    const { spawn } = process.getBuiltinModule("node:child_process")
    const guards = ["--guards", String(process.pid)]
    child = spawn(process.execPath, [...(inBun ? ["--no-install"] : []), REAPER_ENTRY, ...away, ...guards], {
      cwd: os.tmpdir(),
      env,
      stdio: ["pipe", "ignore", "ignore"],
      detached: process.platform !== "win32",
      windowsHide: true,
    })
  } catch {
    return
  }
  child.on("error", () => {})
  child.stdin?.on("error", () => {})
  child.once("exit", () => {
    // One started --away exits at once, leaving the reaper it started on the same pipe.
    if (reaper !== child || away.length > 0) return
    // Killed from outside: another one takes over what is guarded.
    reaper = undefined
    const [first] = guarded
    if (first !== undefined && starts < MAX_STARTS) tell(first[0], first[1])
  })
  // This process exits as if there were no reaper: the pipe's end is the reaper's signal.
  child.unref()
  const pipe = child.stdin
  ;(pipe as { unref?: () => void } | null)?.unref?.()
  // The pipe is kept out of the child's reach: Node closes a child's stdin when it exits, and one
  // started --away exits at once, leaving the reaper on the same pipe.
  ;(child as { stdin: unknown }).stdin = null
  reaper = child
  reaperPipe = pipe ?? undefined
  for (const [id, leftovers] of guarded) write(id, leftovers)
}
