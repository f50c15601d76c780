// Starting an engine's process, and ending it with everything it started. The bun engine is the
// Bun opencode runs tools in (`BUN_BE_BUN=1 opencode`, or a bun); the node engine is this Node.
// Both run the same task server (serve.ts) and speak the same protocol (protocol.ts). The engine
// leads a process group of its own, so the children a tool spawns (and does not wait for) end with
// it: opencode's tools cannot outlive opencode either. It is also started with a mark in its
// environment (ENGINE_MARK), which every process it starts inherits: those that left the group
// (setsid, a shell's `&`, detached) are found by it and ended too (process-tree.ts says how, and
// what it cannot see).
import type { ChildProcess, SpawnOptions } from "node:child_process"
import { constants } from "node:os"
import { ENGINE_TEMP, engineTempFolder } from "../runtime/engine-temp.ts"
import { withoutEmptyFolders } from "../runtime/folder-variables.ts"
import { endLeftovers } from "../runtime/leftovers.ts"
import { ENGINE_MARK, endGroupOfExited, endMarked, endProcessTree } from "../runtime/process-tree.ts"
import type { Guard } from "../runtime/reaper.ts"
import { guard } from "../runtime/reaper.ts"
import { BUN_ENGINE_ENTRY, ENGINE_BUNFIG, NODE_ENGINE_ENTRY } from "../runtime/runtime-files.ts"
import { startProgram } from "../runtime/start-program.ts"
import type { EngineSelection } from "./choose-engine.ts"

/**
 * Where the tools' stdout and stderr go. "pipe" hands them to the caller (the CLI captures them);
 * "inherit" lets them through (the library outside a test runner); "console" pipes both to the
 * caller, which writes each line through this process's console (the library in a test runner,
 * which then shows it under the test that ran the tool: relayed-console.ts); "labelled" pipes both
 * to the caller, which writes them on this process's stderr, each line after the name of the tool
 * that printed it (dev, whose stdout is its URL or its JSON line: labelled-console.ts).
 */
export type EngineConsole = "pipe" | "inherit" | "console" | "labelled"

export type SpawnEngineOptions = {
  cwd: string
  console: EngineConsole
}

/** Each engine's mark, the value of ENGINE_MARK its processes inherit. */
const marks = new WeakMap<ChildProcess, string>()
/** What this process (or its reaper, if it dies first) ends of each engine (reaper.ts). */
const guards = new WeakMap<ChildProcess, Guard>()
/** Each engine's temporary folder (engine-temp.ts), removed with it. */
const temps = new WeakMap<ChildProcess, string>()
let engines = 0

/** Starts the engine in `cwd`, leading a process group of its own. */
export function spawnEngine(selection: EngineSelection, options: SpawnEngineOptions): ChildProcess {
  const { spawn } = process.getBuiltinModule("node:child_process")
  // BUN_BE_BUN makes the opencode executable act as the Bun it embeds; a plain bun ignores it.
  const mark = `${process.pid}-${++engines}-${Math.random().toString(36).slice(2, 10)}`
  const temp = engineTempFolder(mark)
  // --no-install: without a node_modules folder, Bun would fetch what a tool imports (or a plugin
  // named in opencode.json) from the registry into its cache; opencode's Bun never does (a missing
  // package fails the tool list: docs/opencode-contract.md#bun-runtime), and tool-tester downloads
  // nothing unless asked. --config: an empty one, as opencode's Bun reads no bunfig.toml (not the
  // project's either: its preloads do not run there).
  const [command, args, given]: [string, string[], NodeJS.ProcessEnv] =
    selection.name === "bun"
      ? [
          selection.location.binary,
          ["--no-install", `--config=${ENGINE_BUNFIG}`, BUN_ENGINE_ENTRY],
          { ...process.env, BUN_BE_BUN: "1", [ENGINE_MARK]: mark, [ENGINE_TEMP]: temp },
        ]
      : [
          process.execPath,
          // This process is Bun (a CLI run by Bun with --engine node): its engine too, without auto-install.
          typeof process.versions.bun === "string" ? ["--no-install", NODE_ENGINE_ENTRY] : [NODE_ENGINE_ENTRY],
          { ...process.env, ...compileCache(), [ENGINE_MARK]: mark, [ENGINE_TEMP]: temp },
        ]
  // An empty XDG_CACHE_HOME (or TMPDIR...) counts as unset: Bun would put its cache in the project.
  const env = withoutEmptyFolders(given)
  // This process's own IPC channel (a test runner's fork) is not the engine's: without these, its
  // runtime would take descriptor 3 for one.
  delete env["NODE_CHANNEL_FD"]
  delete env["NODE_CHANNEL_SERIALIZATION_MODE"]
  // The engine's channel (engine-channel.ts): the Node side writes on its stdin, it answers on
  // descriptor 3. Plain pipes, read by our own code: Node's IPC parser would throw, out of reach,
  // on a line a tool wrote. One pipe each way, because that is what both runtimes give on Windows
  // (an extra pipe a Bun parent creates can only be written by the child).
  const spawnOptions: SpawnOptions = {
    cwd: options.cwd,
    env,
    stdio: options.console === "inherit" ? ["pipe", "inherit", "inherit", "pipe"] : ["pipe", "pipe", "pipe", "pipe"],
    detached: process.platform !== "win32",
    windowsHide: true,
  }
  // A Bun given as a program (a `.cmd` too) starts as every program does; this Node, directly.
  const child =
    command === process.execPath ? spawn(command, args, spawnOptions) : startProgram(command, args, spawnOptions)
  marks.set(child, mark)
  temps.set(child, temp)
  // A test runner's worker, or the CLI, that exits, is interrupted or killed leaves no engine behind.
  const pid = child.pid
  const paths = [temp]
  if (pid !== undefined) {
    const guarded = guard({ tree: pid, group: pid, mark, paths })
    guards.set(child, guarded)
    // Once it has ended, its id (and its group's) may be reused: what it started is found by its
    // mark. Its folder goes now (and again at the end, should something it started write there).
    child.once("exit", () => {
      guarded.replace({ mark, paths })
      endLeftovers({ paths })
    })
  }
  return child
}

/** The engine's temporary folder (engine-temp.ts; not made until something needs it), removed when it exits. */
export function engineTempOf(child: ChildProcess): string | undefined {
  return temps.get(child)
}

/** Kills the engine, every process in its group, and every process that carries its mark, at once. */
export function endEngine(child: ChildProcess): void {
  if (child.pid === undefined) return
  if (child.exitCode === null && child.signalCode === null) {
    // Not seen to exit, so not reaped: its id is still its own (a zombie keeps it). The engine
    // leads a process group (POSIX) or a tree (Windows): all of it goes.
    endProcessTree(child.pid)
    try {
      child.kill("SIGKILL")
    } catch {}
  } else {
    // Ended and reaped: its id may now be another process's, whose tree must not be walked (on
    // Windows, ids come back soon). What it left is found by its group and its mark.
    endGroupOfExited(child.pid)
  }
  const mark = marks.get(child)
  if (mark !== undefined) endMarked(mark)
  // Nothing of it runs any more: its temporary folder goes.
  const temp = temps.get(child)
  if (temp !== undefined) endLeftovers({ paths: [temp] })
  guards.get(child)?.release()
}

/**
 * Where this Node keeps compiled code (Node 22.8 and later, when bin.js enabled the cache): the node
 * engine's process uses it too, so its code is compiled once, not on every run.
 */
function compileCache(): { NODE_COMPILE_CACHE?: string } {
  const directory = (
    process.getBuiltinModule("node:module") as { getCompileCacheDir?: () => string | undefined }
  ).getCompileCacheDir?.()
  return directory ? { NODE_COMPILE_CACHE: directory } : {}
}

/**
 * The exit status of a process ended by a signal, as shells report it: 128 + the signal's number
 * (SIGINT 130, SIGKILL 137, SIGTERM 143). The one mapping of signals to exit codes (docs/errors.md).
 */
export function exitStatusOfSignal(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0)
}
