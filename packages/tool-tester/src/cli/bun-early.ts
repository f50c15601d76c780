// The first thing the CLI does when bin.js's launcher started it in Bun: take the launcher's word
// (TOOL_TESTER_BUN_HOST, "source:binary") out of the environment and, for a command that loads
// tools, start that Bun's engine at once, before the rest of the CLI is even loaded. bin.js calls
// this before it imports the CLI; main.ts calls it again and gets the same answer (kept on
// globalThis: bin.js and the CLI's bundle each have their own copy of this module). No runtime
// imports but the spawn: every millisecond here is one the engine starts later.

import type { BunSpawn } from "../engine/bun/bun-spawn.ts"
import { spawnInBun } from "../engine/bun/bun-spawn.ts"
import type { BunLocation } from "../engine/find-bun.ts"

/** The commands that load tools in an engine (the others never start one). */
export const WORKER_COMMANDS = ["list", "schema", "run", "doctor", "fuzz"] as const
export type WorkerCommand = (typeof WORKER_COMMANDS)[number]

/** The sources the launcher can find a Bun by: the others need the CLI's own lookup. */
export const LAUNCHER_SOURCES: readonly BunLocation["source"][] = ["option", "env", "path"]

export type BunHost = {
  /** The Bun the launcher started this CLI in, as the engine's location would say it. */
  location: BunLocation
  /** Its engine, started for a command that needs one (not for --watch, which restarts engines). */
  started?: BunSpawn
}

const MARKER = "TOOL_TESTER_BUN_HOST"
const KEPT = Symbol.for("@opencode-ai/tool-tester/bun-host")

/** The command that will load tools, unless help is asked for. */
export function workerCommand(argv: readonly string[]): WorkerCommand | undefined {
  if (argv.includes("-h") || argv.includes("--help")) return undefined
  return WORKER_COMMANDS.find((command) => command === argv[0])
}

/** The command that will load tools, when the CLI in Bun runs it (--watch restarts engines: Node's to do). */
export function hostableCommand(argv: readonly string[]): WorkerCommand | undefined {
  return argv.includes("--watch") ? undefined : workerCommand(argv)
}

/**
 * The Bun this CLI was started in by the launcher, or undefined (started by Node, or by Bun some
 * other way). The marker and BUN_BE_BUN are removed from the environment either way, so that
 * nothing this process starts inherits them (an `opencode` started with BUN_BE_BUN is a Bun).
 */
export function startBunHost(argv: readonly string[], env: Record<string, string | undefined>): BunHost | undefined {
  const kept = globalThis as { [KEPT]?: BunHost | null }
  if (kept[KEPT] !== undefined) return kept[KEPT] ?? undefined
  kept[KEPT] = null
  const marker = env[MARKER]
  if (marker === undefined) return undefined
  delete env[MARKER]
  if (typeof process.versions.bun !== "string") return undefined
  delete env["BUN_BE_BUN"]
  const colon = marker.indexOf(":")
  const source = marker.slice(0, colon) as BunLocation["source"]
  const binary = marker.slice(colon + 1)
  if (!LAUNCHER_SOURCES.includes(source) || binary === "") return undefined
  const host: BunHost = { location: { source, binary } }
  if (hostableCommand(argv)) {
    // dist/cli/ holds this module and the bundle's copy of it alike; the engine's entry is dist/engine/bun-serve.js.
    const entry = decodeURIComponent(new URL("../engine/bun-serve.js", import.meta.url).pathname)
    host.started = spawnInBun(binary, entry, { cwd: process.cwd(), env: { ...env, BUN_BE_BUN: "1" }, console: "pipe" })
  }
  kept[KEPT] = host
  return host
}
