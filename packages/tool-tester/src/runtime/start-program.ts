// Every program tool-tester starts (npm, pnpm, opencode, a Bun, git, the system's own tools) is
// started here, one way on every OS: found as the user's shell finds it (find-program.ts, PATHEXT
// on Windows), a `.cmd` shim replaced by the program behind it where one is known, and the rest
// handed to cross-spawn on Windows, which runs a `.cmd` through cmd.exe with each argument escaped,
// so an argument is never split (a cache under `C:\Users\John Smith`) and never read as a command
// (elsewhere cross-spawn is Node's spawn itself). Never `shell: true`. Children of this very Node
// (`process.execPath`) need none of it.
import type {
  ChildProcess,
  ChildProcessByStdio,
  SpawnOptions,
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
import { findProgram, isCommandName, type ProgramEnvironment, programCommand } from "./find-program.ts"

/** Starts `command` (a name looked up on the PATH of `options.env`, or a path) with `args`, each one argument. */
export function startProgram(
  command: string,
  args: readonly string[],
  options: SpawnOptionsWithStdioTuple<StdioNull, StdioPipe, StdioPipe>,
): ChildProcessByStdio<null, Readable, Readable>
export function startProgram(command: string, args: readonly string[], options?: SpawnOptions): ChildProcess
export function startProgram(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const [file, ...prefix] = commandLine(command, options.env ?? process.env, options.cwd)
  return spawner().spawn(file, [...prefix, ...args], options)
}

/** programOutput (program-output.ts), waiting: for the system's own tools (`ps`, `taskkill`, `sysctl`) where no wait can be async. */
export function programOutputSync(
  command: string,
  args: readonly string[],
  options: Omit<SpawnSyncOptionsWithStringEncoding, "encoding"> = {},
): SpawnSyncReturns<string> {
  const [file, ...prefix] = commandLine(command, options.env ?? process.env, options.cwd)
  return spawner().spawnSync(file, [...prefix, ...args], { windowsHide: true, ...options, encoding: "utf8" })
}

// --- internal ---

function commandLine(command: string, env: ProgramEnvironment, cwd: string | URL | undefined): [string, ...string[]] {
  // A bare name is looked up on the child's PATH; a path is taken from the child's folder, as spawn does.
  const file = isCommandName(command)
    ? (findProgram(command, env) ?? command)
    : path.resolve(cwd === undefined ? "" : String(cwd instanceof URL ? fileURLToPath(cwd) : cwd), command)
  return programCommand(file, env)
}

/**
 * cross-spawn on Windows, loaded on first use (most runs start no program). Elsewhere it only calls
 * Node's spawn (its parsing and ENOENT checks are for Windows), and its ten files would be on the
 * way to every bun engine's start: Node's own spawn, then.
 */
function spawner(): Pick<typeof import("node:child_process"), "spawn" | "spawnSync"> {
  if (process.platform !== "win32") return process.getBuiltinModule("node:child_process")
  const crossSpawn = createRequire(import.meta.url)("cross-spawn") as typeof import("cross-spawn")
  return { spawn: crossSpawn, spawnSync: crossSpawn.sync } as Pick<
    typeof import("node:child_process"),
    "spawn" | "spawnSync"
  >
}
