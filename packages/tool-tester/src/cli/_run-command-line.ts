// A command line, from argv to exit code, given the I/O it may use (CliIO) and the engine main.ts
// started early: help, version, the command, and the one failure line. main.ts is the bin around it
// (it reads `process`, flushes and exits); tests run it in-process with an I/O of their own.
import { readFileSync } from "node:fs"
import type { StartedEngine } from "../tasks/engine-task.ts"
import { didYouMean } from "../did-you-mean.ts"
import { ToolTesterError } from "../errors.ts"
import { MODELLED_OPENCODE_VERSION } from "../opencode/opencode-version.ts"
import { setColor, shouldColor } from "./_color.ts"
import type { CliIO } from "./_command.ts"
import { commandHelp, globalHelp } from "./command-help.ts"
import type { EarlyEngine } from "./engine-option.ts"
import { optionWords } from "./option-words.ts"
import { EXIT_USAGE, exitCodeFor } from "./exit-codes.ts"

type Command = (argv: string[], io: CliIO, engine: StartedEngine | undefined) => Promise<number>

const commands: Record<string, () => Promise<Command>> = {
  list: async () => (await import("./commands/list.ts")).listCommand,
  schema: async () => (await import("./commands/schema.ts")).schemaCommand,
  run: async () => (await import("./commands/run.ts")).runCommand,
  doctor: async () => (await import("./commands/doctor.ts")).doctorCommand,
  fuzz: async () => (await import("./commands/fuzz.ts")).fuzzCommand,
  e2e: async () => (await import("./commands/e2e.ts")).e2eCommand,
  eval: async () => (await import("./commands/eval.ts")).evalCommand,
  dev: async () => (await import("./commands/dev.ts")).devCommand,
  preflight: async () => (await import("./commands/preflight.ts")).preflightCommand,
  verify: async () => (await import("./commands/verify.ts")).verifyCommand,
}

/**
 * Runs one command line and returns its exit code; a failure is printed (one line, JSON with
 * --json) and mapped to its documented exit code, never thrown. `early` is what
 * `startEngineEarly(argv, ...)` returned for the same argv.
 */
export async function runCommandLine(argv: string[], io: CliIO, early: EarlyEngine): Promise<number> {
  const json = optionWords(argv).includes("--json")
  setColor(shouldColor({ isTTY: io.stdoutIsTTY, json, env: io.env }))
  try {
    return await dispatch(argv, io, early)
  } catch (error) {
    // Loaded for a failure only: it brings the commands' shared code, which the help does without.
    const { reportFailure } = await import("./_command.ts")
    if (ToolTesterError.isInstance(error)) {
      reportFailure(io, json, { code: error.code, message: error.message })
      return exitCodeFor(error.code)
    }
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
    reportFailure(io, json, { code: "INTERNAL", message: json ? message : `unexpected error: ${message}` })
    return EXIT_USAGE
  }
}

// --- internal ---

async function dispatch(argv: string[], io: CliIO, early: EarlyEngine): Promise<number> {
  const [name, ...rest] = argv
  if (name === "-h" || name === "--help" || (name === "help" && rest[0] === undefined)) {
    io.write(`${globalHelp()}\n`)
    return 0
  }
  if (name === "help") {
    const run = await invocation(io)
    io.write(`${commandHelp(rest[0]!, run) ?? unknownCommand(rest[0]!, run)}\n`)
    return 0
  }
  // After a command too (`tool-tester list --version`), as docs/cli.md lists it among the options every
  // command shares; not after `--`, where a word is a tool's name.
  const flags = optionWords(rest)
  const load = name !== undefined && Object.hasOwn(commands, name) ? commands[name] : undefined
  if (name === "-v" || name === "--version" || (load && (flags.includes("-v") || flags.includes("--version")))) {
    io.write(`${version()} (models opencode ${MODELLED_OPENCODE_VERSION})\n`)
    return 0
  }
  if (name === undefined) {
    io.writeError(`${globalHelp()}\n`)
    return EXIT_USAGE
  }
  // An own command only: `tool-tester constructor` is no command, whatever objects inherit.
  if (!load) unknownCommand(name, await invocation(io))
  if (flags.includes("-h") || flags.includes("--help")) {
    io.write(`${commandHelp(name, await invocation(io))}\n`)
    return 0
  }
  const command = await load()
  const { command: needsEngine, choice, engine } = early
  if (choice?.error) throw choice.error
  if (choice?.chosen?.notice && !flags.includes("--json")) io.writeError(`${choice.chosen.notice}\n`)
  // The bun engine was asked for and no Bun is here yet: install npm's, then start it.
  const started =
    engine ??
    (needsEngine && choice
      ? (await import("../tasks/engine-task.ts")).startEngine(needsEngine, await installed(argv, io))
      : undefined)
  return command(rest, io, started)
}

function unknownCommand(name: string, run: string): never {
  const names = Object.keys(commands)
  throw new ToolTesterError(
    "USAGE",
    `unknown command "${name}"${didYouMean(name, names)} (commands: ${names.join(", ")}; see ${run} --help)`,
    {
      data: { command: name },
    },
  )
}

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string
  }
  return manifest.version
}

/** The bun engine asked for with no Bun here yet: npm's Bun, installed into the cache (engine-option.ts). */
async function installed(argv: string[], io: CliIO) {
  return (await (await import("./engine-option.ts")).installEngine(argv, io)).selection
}

/** The words that run this bin again, for the help's examples. */
async function invocation(io: CliIO): Promise<string> {
  return (await import("./invocation.ts")).toolTesterCommand(io)
}
