// Running a program to its end for what it prints (npm, a binary's --version or --help), bounded:
// started as every program is (start-program.ts), and at its bound ended with what it started.
import type { ChildProcess, SpawnOptionsWithoutStdio } from "node:child_process"
import { endProcessTree } from "./process-tree.ts"
import { startProgram } from "./start-program.ts"

export type ProgramOutput = {
  /** Why it could not start, or was stopped (timeout, abort); null when it ran to its end. */
  error: Error | null
  /** Its exit code (null when a signal ended it, or it did not start). */
  exitCode: number | null
  stdout: string
  stderr: string
  /** `timeout` stopped it. */
  timedOut: boolean
}

/**
 * Runs `command args` to its end and resolves with what it printed (never rejects). It ends with the
 * program, not with its output pipes: a process the program started and left running (a daemon, a
 * fake opencode's grandchild) may hold them open for ever, so once the program has exited its pipes
 * get a moment to drain, then are closed. `timeout` kills the program and what it started (SIGKILL:
 * a program that ignores SIGTERM would outlive it; a script's own children too) and resolves at once.
 */
export function programOutput(
  command: string,
  args: readonly string[],
  options: Omit<SpawnOptionsWithoutStdio, "stdio"> = {},
): Promise<ProgramOutput> {
  const { timeout, ...spawnOptions } = options
  return new Promise((resolve) => {
    let stdout = ""
    let stderr = ""
    let settled = false
    const timers: NodeJS.Timeout[] = []
    let child: ChildProcess | undefined
    const settle = (error: Error | null, exitCode: number | null, timedOut = false) => {
      if (settled) return
      settled = true
      for (const timer of timers) clearTimeout(timer)
      child?.stdout?.destroy()
      child?.stderr?.destroy()
      resolve({ error, exitCode, stdout, stderr, timedOut })
    }
    const ended = (code: number | null, signal: NodeJS.Signals | null) =>
      settle(
        code === 0
          ? null
          : new Error(`${command} ${signal === null ? `exited with ${code}` : `was ended by ${signal}`}`),
        code,
      )
    try {
      child = startProgram(command, args, { windowsHide: true, ...spawnOptions, stdio: ["ignore", "pipe", "pipe"] })
    } catch (error) {
      return settle(error as Error, null)
    }
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.once("error", (error) => settle(error, null))
    child.once("close", ended)
    child.once("exit", (code, signal) => timers.push(setTimeout(() => ended(code, signal), PIPE_DRAIN_MS)))
    if (timeout !== undefined && timeout > 0) {
      timers.push(
        setTimeout(() => {
          if (child?.pid === undefined) child?.kill("SIGKILL")
          else endProcessTree(child.pid)
          settle(new Error(`${command} did not end within ${timeout} ms and was stopped`), null, true)
        }, timeout),
      )
    }
  })
}

// --- internal ---

/** How long the output pipes of a program that has exited may stay open before they are closed. */
const PIPE_DRAIN_MS = 500
