// Starting the bun engine's process from Node, and ending it with everything it started. The
// engine leads a process group of its own, so the children a tool spawns (and does not wait for)
// end with it: opencode's tools cannot outlive opencode either.
import type { ChildProcess } from "node:child_process"
import { spawn } from "node:child_process"
import { BUN_ENGINE_ENTRY } from "../../discovery/runtime-files.ts"
import type { BunLocation } from "../find-bun.ts"
import type { FromEngine, ToEngine } from "./protocol.ts"

export type EngineProcess = ChildProcess & {
  send(message: ToEngine): boolean
  on(event: "message", listener: (message: FromEngine) => void): EngineProcess
  on(event: string, listener: (...args: never[]) => void): EngineProcess
}

const live = new Set<ChildProcess>()
let exitHookInstalled = false

/**
 * Starts the engine in `cwd`. `console` "pipe" hands the tools' stdout and stderr to the caller
 * (the CLI captures them); "inherit" lets them through (the library, as a test runner shows them).
 */
export function spawnEngine(
  location: BunLocation,
  options: { cwd: string; console: "pipe" | "inherit" },
): EngineProcess {
  const child = spawn(location.binary, [BUN_ENGINE_ENTRY], {
    cwd: options.cwd,
    // BUN_BE_BUN makes the opencode executable act as the Bun it embeds; a plain bun ignores it.
    env: { ...process.env, BUN_BE_BUN: "1" },
    stdio: ["ignore", options.console, options.console, "ipc"],
    serialization: "json",
    detached: process.platform !== "win32",
  }) as EngineProcess
  live.add(child)
  child.once("exit", () => live.delete(child))
  // A test runner's worker, or the CLI, that exits leaves no engine behind.
  if (!exitHookInstalled) {
    exitHookInstalled = true
    process.once("exit", () => {
      for (const engine of live) endEngine(engine)
    })
  }
  return child
}

/** Kills the engine and every process in its group, at once. */
export function endEngine(child: ChildProcess): void {
  if (child.pid === undefined) return
  try {
    if (process.platform !== "win32") process.kill(-child.pid, "SIGKILL")
  } catch {
    // The group is gone already.
  }
  try {
    child.kill("SIGKILL")
  } catch {}
}
