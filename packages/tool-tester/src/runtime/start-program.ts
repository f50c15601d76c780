// Every program tool-tester starts (npm, pnpm, opencode, a Bun, git, the system's own tools) is
// started here, one way on every OS: found as the user's shell finds it (find-program.ts, PATHEXT
// on Windows), a `.cmd` shim replaced by the program behind it where one is known, and the rest
// handed to cross-spawn, which runs a `.cmd` through cmd.exe with each argument escaped, so an
// argument is never split (a cache under `C:\Users\John Smith`) and never read as a command. Never
// `shell: true`. Children of this very Node (`process.execPath`) need none of it.
import type {
  ChildProcess,
  ChildProcessByStdio,
  SpawnOptions,
  SpawnOptionsWithoutStdio,
  SpawnOptionsWithStdioTuple,
  SpawnSyncOptionsWithStringEncoding,
  SpawnSyncReturns,
  StdioNull,
  StdioPipe,
} from "node:child_process"
import { createRequire } from "node:module"
import path from "node:path"
import type { Readable } from "node:stream"
import { fileURLToPath } from "node:url"
import { findProgram, type ProgramEnvironment, programCommand } from "./find-program.ts"

/** Starts `command` (a name looked up on the PATH of `options.env`, or a path) with `args`, each one argument. */
export function startProgram(
  command: string,
  args: readonly string[],
  options: SpawnOptionsWithStdioTuple<StdioNull, StdioPipe, StdioPipe>,
): ChildProcessByStdio<null, Readable, Readable>
export function startProgram(command: string, args: readonly string[], options?: SpawnOptions): ChildProcess
export function startProgram(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const [file, ...prefix] = commandLine(command, options.env ?? process.env, options.cwd)
  return crossSpawn()(file, [...prefix, ...args], options)
}

export type ProgramOutput = {
  /** Why it could not start, or was stopped (timeout, abort); null when it ran to its end. */
  error: Error | null
  /** Its exit code (null when a signal ended it, or it did not start). */
  exitCode: number | null
  stdout: string
  stderr: string
}

/**
 * Runs `command args` to its end and resolves with what it printed (never rejects). It ends with the
 * program, not with its output pipes: a process the program started and left running (a daemon, a
 * fake opencode's grandchild) may hold them open for ever, so once the program has exited its pipes
 * get a moment to drain, then are closed. `timeout` kills the program (SIGKILL: a program that
 * ignores SIGTERM would outlive it) and resolves at once.
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
    const settle = (error: Error | null, exitCode: number | null) => {
      if (settled) return
      settled = true
      for (const timer of timers) clearTimeout(timer)
      child?.stdout?.destroy()
      child?.stderr?.destroy()
      resolve({ error, exitCode, stdout, stderr })
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
          child?.kill("SIGKILL")
          settle(new Error(`${command} did not end within ${timeout} ms and was stopped`), null)
        }, timeout),
      )
    }
  })
}

/** {@link programOutput}, waiting: for the system's own tools (`ps`, `taskkill`, `sysctl`) where no wait can be async. */
export function programOutputSync(
  command: string,
  args: readonly string[],
  options: Omit<SpawnSyncOptionsWithStringEncoding, "encoding"> = {},
): SpawnSyncReturns<string> {
  const [file, ...prefix] = commandLine(command, options.env ?? process.env, options.cwd)
  return crossSpawn().sync(file, [...prefix, ...args], { windowsHide: true, ...options, encoding: "utf8" })
}

// --- internal ---

/** How long the output pipes of a program that has exited may stay open before they are closed. */
const PIPE_DRAIN_MS = 500

function commandLine(command: string, env: ProgramEnvironment, cwd: string | URL | undefined): [string, ...string[]] {
  // A bare name is looked up on the child's PATH; a path is taken from the child's folder, as spawn does.
  const file = /[\\/]/.test(command)
    ? path.resolve(cwd === undefined ? "" : String(cwd instanceof URL ? fileURLToPath(cwd) : cwd), command)
    : (findProgram(command, env) ?? command)
  return programCommand(file, env)
}

/** Loaded on first use: most runs start no program, and the engine's start stays light. */
function crossSpawn(): typeof import("cross-spawn") {
  return createRequire(import.meta.url)("cross-spawn") as typeof import("cross-spawn")
}
