// `--engine auto|bun|node` and `--engine-binary PATH`, read by main.ts before the command parses
// its flags (the engine starts while the CLI loads), with TOOL_TESTER_ENGINE and
// TOOL_TESTER_ENGINE_BINARY as defaults. The commands accept both flags as shared flags.
import path from "node:path"
import type { ChosenEngine } from "../engine-client/choose-engine.ts"
import { chooseEngine, chooseEngineNow, nothingFound } from "../engine-client/choose-engine.ts"
import type { StartedEngine } from "../tasks/engine-task.ts"
import type { TaskCommand } from "../tasks/task.ts"
import type { CliIO } from "./_command.ts"
import { engineCommand } from "./engine-command.ts"
import { optionWords } from "./option-words.ts"

/** The engine flags as they appear in argv (`--engine bun` or `--engine=bun`). */
function engineFlags(argv: readonly string[]): { engine?: string; engineBinary?: string } {
  const flags: { engine?: string; engineBinary?: string } = {}
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!
    if (argument === "--") break
    for (const [flag, key] of [
      ["--engine", "engine"],
      ["--engine-binary", "engineBinary"],
    ] as const) {
      if (argument === flag && index + 1 < argv.length) flags[key] = argv[++index]!
      else if (argument.startsWith(`${flag}=`)) flags[key] = argument.slice(flag.length + 1)
    }
  }
  return flags
}

/** The engine a command line needs, chosen and started before the rest of the CLI loads. */
export type EarlyEngine = {
  /** The command that loads tools in an engine (undefined: none, or help was asked for). */
  command: TaskCommand | undefined
  /** The choice (or why none could be made: reported once the CLI is up). */
  choice: { chosen?: ChosenEngine | undefined; error?: unknown } | undefined
  /** The engine, already starting; undefined when Bun must be installed first. */
  engine: StartedEngine | undefined
}

/**
 * Chooses the engine from --engine / --engine-binary / the environment and starts it in the
 * working directory, so that it starts while the rest of the CLI loads. The engine modules are
 * loaded only for a command that needs an engine. `cwd`: the folder the command was typed in
 * (CliIO's), which a relative --engine-binary or --dir is read from.
 */
export async function startEngineEarly(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<EarlyEngine> {
  const command = engineCommand(argv)
  const choice = command ? chooseEngineEarly(argv, env, cwd) : undefined
  const selection = choice?.chosen?.selection
  if (!command || !selection) return { command, choice, engine: undefined }
  const { startEngine } = await import("../tasks/engine-task.ts")
  return { command, choice, engine: startEngine(command, selection) }
}

/** The engine chosen without installing anything; `chosen` is undefined when Bun must be installed first. */
function chooseEngineEarly(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  cwd: string,
): { chosen?: ChosenEngine | undefined; error?: unknown } {
  try {
    return { chosen: chooseEngineNow({ ...engineFlags(argv), env, cwd, directory: directoryFlag(argv, cwd) }) }
  } catch (error) {
    return { error }
  }
}

/** The bun engine asked for with no Bun on this machine: npm's Bun is installed into the cache, once. */
export async function installEngine(argv: readonly string[], io: CliIO): Promise<ChosenEngine> {
  // With a bun on PATH (not taken on its own): say so, and how it would be, before downloading another.
  const found = nothingFound(io.env)
  const why =
    found === "no opencode found" ? `${found}, and a bun on PATH is used only with --engine-binary bun` : found
  io.writeError(`tool-tester: ${why}; installing npm's bun into tool-tester's cache (once)...\n`)
  return chooseEngine({ ...engineFlags(argv), env: io.env, cwd: io.cwd, directory: directoryFlag(argv, io.cwd) })
}

/** --dir, read from `cwd` as the commands read it. */
function directoryFlag(argv: readonly string[], cwd: string): string | undefined {
  const flags = optionWords(argv)
  const index = flags.indexOf("--dir")
  const given = index >= 0 ? flags[index + 1] : flags.find((argument) => argument.startsWith("--dir="))?.slice(6)
  return given === undefined ? undefined : path.resolve(cwd, given)
}
