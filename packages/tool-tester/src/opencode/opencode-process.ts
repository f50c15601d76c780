// Running the opencode binary as a bounded child: its own process group (killed whole on timeout,
// abort or exit), and a mark in its environment (ENGINE_MARK, as an engine's: process-tree.ts) so
// any process it started that escaped the group (a new session, an orphan) can still be found and
// ended, on Linux from /proc and on macOS from `ps` (Windows: `taskkill /T`). Guarded (reaper.ts):
// a CLI killed with SIGKILL leaves no opencode running either.

import { ToolTesterError } from "../errors.ts"
import { withoutEmptyFolders } from "../runtime/folder-variables.ts"
import { ENGINE_MARK, endGroupOfExited, endMarked, endProcessTree } from "../runtime/process-tree.ts"
import { guard } from "../runtime/reaper.ts"
import { startProgram } from "../runtime/start-program.ts"
import { eventLines, headAndTail } from "./bounded-output.ts"

export interface OpencodeProcessOptions {
  binary: string
  args: string[]
  cwd: string
  env: Record<string, string>
  marker: string
  /** The bound of the run; a function is asked again each second, so a bound that grew keeps it going (verify's, src/verify/run-bounds.ts). */
  timeoutMs: number | (() => number)
  signal?: AbortSignal | undefined
}

export interface OpencodeProcessResult {
  exitCode: number | null
  /** Its JSON event lines, one per line: what else a tool printed there is left out (bounded-output.ts). */
  stdout: string
  /** How many characters of stdout were not its events (what tools printed there), left out. */
  stdoutLeftOut: number
  /** Its start and end, with a line saying how much is left out between when it is long. */
  stderr: string
  /** The timeout ended the run. */
  timedOut: boolean
  /** The abort signal ended the run. */
  aborted: boolean
  /** The bound as last read (the one the run stopped at when `timedOut`). */
  boundMs: number
}

export function runOpencodeProcess(options: OpencodeProcessOptions): Promise<OpencodeProcessResult> {
  return new Promise((resolve, reject) => {
    const stdout = eventLines()
    const stderr = headAndTail()
    let timedOut = false
    let aborted = false
    let exitCode: number | null = null
    const child = startProgram(options.binary, options.args, {
      cwd: options.cwd,
      env: withoutEmptyFolders({ ...options.env, [ENGINE_MARK]: options.marker }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: process.platform !== "win32",
      windowsHide: true,
    })
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => stdout.add(chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => stderr.add(chunk))
    const guarded =
      child.pid === undefined
        ? guard({ mark: options.marker })
        : guard({ tree: child.pid, group: child.pid, mark: options.marker })
    const stop = (): void => {
      // Once opencode has ended, its id may be reused: its group and mark find what it left.
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) endProcessTree(child.pid)
      else if (child.pid !== undefined) endGroupOfExited(child.pid)
      endMarked(options.marker)
    }
    const startedAt = performance.now()
    const bound = options.timeoutMs
    let boundMs = typeof bound === "number" ? bound : bound()
    const onTimeout = (): void => {
      timedOut = true
      stop()
    }
    const timer =
      typeof bound === "number"
        ? setTimeout(onTimeout, bound)
        : setInterval(() => {
            if (timedOut) return
            boundMs = bound()
            if (performance.now() - startedAt >= boundMs) onTimeout()
          }, 1000)
    const onAbort = (): void => {
      aborted = true
      stop()
    }
    if (options.signal?.aborted) onAbort()
    options.signal?.addEventListener("abort", onAbort, { once: true })
    const finish = (): void => {
      clearTimeout(timer) // an interval too
      options.signal?.removeEventListener("abort", onAbort)
    }
    child.once("error", (error: NodeJS.ErrnoException) => {
      finish()
      stop()
      guarded.release()
      reject(
        new ToolTesterError(
          "OPENCODE_FAILED",
          `opencode could not start (${error.code ?? error.message}): ${options.binary}. Check the binary, or reinstall it.`,
          { cause: error, data: { binary: options.binary } },
        ),
      )
    })
    child.once("exit", (code) => {
      exitCode = code
      // Whatever opencode left running goes with it; then its pipes close. Its id is free now:
      // until they close, only the mark is guarded.
      stop()
      guarded.replace({ mark: options.marker })
      // A grandchild holding the pipes open must not keep us waiting.
      setTimeout(() => {
        child.stdout.destroy()
        child.stderr.destroy()
      }, 2000).unref()
    })
    child.once("close", () => {
      finish()
      guarded.release()
      resolve({
        exitCode,
        stdout: stdout.text(),
        stdoutLeftOut: stdout.leftOut,
        stderr: stderr.text(),
        timedOut,
        aborted,
        boundMs,
      })
    })
  })
}
