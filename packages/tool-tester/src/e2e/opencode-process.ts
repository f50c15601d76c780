// Running the opencode binary as a bounded child: its own process group (killed whole on timeout,
// abort or exit), and a marker in its environment so any process it started that escaped the
// group (a new session, an orphan) can still be found and ended on Linux.

import { spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { endProcessTree } from "../engine/process-tree.ts"
import { ToolTesterError } from "../errors.ts"

/** The environment variable carrying the run marker into opencode and every process it starts. */
export const markerVariable = "TOOL_TESTER_E2E_RUN"

export interface OpencodeProcessOptions {
  binary: string
  args: string[]
  cwd: string
  env: Record<string, string>
  marker: string
  timeoutMs: number
  signal?: AbortSignal | undefined
}

export interface OpencodeProcessResult {
  exitCode: number | null
  stdout: string
  stderr: string
  /** The timeout ended the run. */
  timedOut: boolean
  /** The abort signal ended the run. */
  aborted: boolean
}

export function runOpencodeProcess(options: OpencodeProcessOptions): Promise<OpencodeProcessResult> {
  return new Promise((resolve, reject) => {
    let stdout = ""
    let stderr = ""
    let timedOut = false
    let aborted = false
    let exitCode: number | null = null
    const child = spawn(options.binary, options.args, {
      cwd: options.cwd,
      env: { ...options.env, [markerVariable]: options.marker },
      stdio: ["ignore", "pipe", "pipe"],
      detached: process.platform !== "win32",
      windowsHide: true,
    })
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk
    })
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
    })
    const stop = (): void => {
      killGroup(child.pid)
      killMarkedProcesses(options.marker)
    }
    const timer = setTimeout(() => {
      timedOut = true
      stop()
    }, options.timeoutMs)
    const onAbort = (): void => {
      aborted = true
      stop()
    }
    if (options.signal?.aborted) onAbort()
    options.signal?.addEventListener("abort", onAbort, { once: true })
    const finish = (): void => {
      clearTimeout(timer)
      options.signal?.removeEventListener("abort", onAbort)
    }
    child.once("error", (error: NodeJS.ErrnoException) => {
      finish()
      stop()
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
      // Whatever opencode left running goes with it; then its pipes close.
      stop()
      // A grandchild holding the pipes open must not keep us waiting.
      setTimeout(() => {
        child.stdout.destroy()
        child.stderr.destroy()
      }, 2000).unref()
    })
    child.once("close", () => {
      finish()
      resolve({ exitCode, stdout, stderr, timedOut, aborted })
    })
  })
}

/** Process ids (Linux) whose environment carries the marker of a run. */
export function findMarkedProcesses(marker: string): number[] {
  if (process.platform !== "linux") return []
  const needle = `${markerVariable}=${marker}\0`
  const found: number[] = []
  for (const name of readdirSync("/proc")) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    try {
      if (`${readFileSync(`/proc/${pid}/environ`, "latin1")}\0`.includes(needle)) found.push(pid)
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found
}

/** Ends every process carrying the marker of a run (Linux). */
export function killMarkedProcesses(marker: string): void {
  for (const pid of findMarkedProcesses(marker)) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // Already gone.
    }
  }
}

// --- internal ---

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return
  endProcessTree(pid)
}
