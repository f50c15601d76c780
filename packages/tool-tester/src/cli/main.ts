// The `tool-tester` bin: argv -> command -> exit code. The only module that reads `process`.
// Nothing is imported before argv is read: `--version` loads only the manifest, and the engine that
// will load the tools is started next, before the rest is imported, so its start-up overlaps ours;
// commands are imported on demand, so `run` does not load what `e2e` needs. Type-only imports are
// erased: they load nothing.

import type { StartedEngine } from "../engine/engine-task.ts"
import type { CliIO } from "./_command.ts"

const argv = process.argv.slice(2)
// `--version` needs nothing but the manifest: answered before anything else loads.
if (argv[0] === "-v" || argv[0] === "--version") {
  const { readFileSync } = await import("node:fs")
  const { flushStdio } = await import("../_flush-stdio.ts")
  process.stdout.write(`${version(readFileSync)}\n`)
  await flushStdio()
  process.exit()
}
const { chooseEngineEarly, engineCommand, installEngine } = await import("./engine-option.ts")
const needsEngine = engineCommand(argv)
// The engine is chosen from --engine / --engine-binary / the environment before anything else, so
// that it starts while the rest of the CLI loads. A bad choice is reported once the CLI is up.
const early = needsEngine ? chooseEngineEarly(argv, process.env) : undefined
const chosen = early?.chosen?.selection
const { startEngine } = needsEngine ? await import("../engine/engine-task.ts") : { startEngine: undefined }
const engine = needsEngine && chosen && startEngine ? startEngine(needsEngine, chosen) : undefined

const { ToolTesterError } = await import("../errors.ts")
const { reportFailure } = await import("./_command.ts")
const { setColor, shouldColor } = await import("./_color.ts")
const { EXIT_USAGE, exitCodeFor } = await import("./exit-codes.ts")
const { flushStdio } = await import("../_flush-stdio.ts")

const { commandHelp, globalHelp } = await import("./command-help.ts")
const { didYouMean } = await import("../did-you-mean.ts")

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
}

const json = argv.includes("--json")
/** What ends the CLI from outside: each is handled (docs/cli.md, "Signals"). */
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const
const interruptHandlers = new Set<(signal: NodeJS.Signals) => void>()
const io: CliIO = {
  cwd: process.cwd(),
  ...(process.argv[1] === undefined ? {} : { bin: process.argv[1] }),
  env: process.env,
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  write: (text) => void process.stdout.write(text),
  writeError: (text) => void process.stderr.write(text),
  chdir: (directory) => process.chdir(directory),
  onInterrupt: (handler) => {
    interruptHandlers.add(handler)
    return () => void interruptHandlers.delete(handler)
  },
}
let interrupted = false
for (const signal of SIGNALS) process.on(signal, onSignal)
setColor(shouldColor({ isTTY: io.stdoutIsTTY, json, env: io.env }))
// A reader that stops early (`| head`) is not an error of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0)
    throw error
  })
}

async function main(): Promise<number> {
  const [name, ...rest] = argv
  if (name === "-h" || name === "--help" || (name === "help" && rest[0] === undefined)) {
    io.write(`${globalHelp()}\n`)
    return 0
  }
  if (name === "help") {
    io.write(`${commandHelp(rest[0]!, await invocation()) ?? unknownCommand(rest[0]!)}\n`)
    return 0
  }
  if (name === undefined) {
    io.writeError(`${globalHelp()}\n`)
    return EXIT_USAGE
  }
  const load = commands[name]
  if (!load) unknownCommand(name)
  if (rest.includes("-h") || rest.includes("--help")) {
    io.write(`${commandHelp(name, await invocation())}\n`)
    return 0
  }
  const command = await load()
  if (early?.error) throw early.error
  if (early?.chosen?.notice && !json) io.writeError(`${early.chosen.notice}\n`)
  // The bun engine was asked for and no Bun is here yet: install npm's, then start it.
  const started =
    engine ??
    (needsEngine && early && startEngine
      ? startEngine(needsEngine, (await installEngine(argv, io)).selection)
      : undefined)
  return command(rest, io, started)
}

main()
  .then(
    (exitCode) => {
      process.exitCode = exitCode
    },
    (error: unknown) => {
      if (ToolTesterError.isInstance(error)) {
        reportFailure(io, json, { code: error.code, message: error.message })
        process.exitCode = exitCodeFor(error.code)
        return
      }
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
      reportFailure(io, json, { code: "INTERNAL", message: json ? message : `unexpected error: ${message}` })
      process.exitCode = EXIT_USAGE
    },
  )
  .finally(async () => {
    // Exit as soon as the report is out: nothing a tool started outlives the run (the engine's
    // process group is ended with it), and an engine started for a command that then failed its
    // usage checks ends with this process.
    await flushStdio()
    process.exit()
  })

// --- internal ---

/**
 * Ctrl-C, SIGTERM or a hang-up. A command that stops on its own (e2e, eval, preflight, dev, watch)
 * is told, once; otherwise, or at a second signal, everything the CLI started is ended here and
 * now (an engine busy in a loop would never notice: it runs no code of ours), and the CLI ends by
 * that signal, which shells report as 128 + its number. A SIGKILL runs none of this: the reaper
 * (src/engine/reaper.ts) ends what is left then.
 */
function onSignal(signal: NodeJS.Signals): void {
  if (!interrupted && interruptHandlers.size > 0) {
    interrupted = true
    for (const handler of [...interruptHandlers]) handler(signal)
    return
  }
  void endEverything(signal)
}

/** Ends what the CLI started (loaded on the first signal: a command that guarded nothing loads nothing for it), reports, and ends by `signal`. */
async function endEverything(signal: NodeJS.Signals): Promise<void> {
  const { endGuarded } = await import("../engine/reaper.ts")
  const { exitStatusOfSignal } = await import("../engine/spawn-engine.ts")
  endGuarded()
  reportFailure(io, json, {
    code: "INTERRUPTED",
    message: `interrupted (${signal}): the engine and everything the command started were ended`,
  })
  await Promise.race([flushStdio(), new Promise((resolve) => setTimeout(resolve, 1_000))])
  for (const name of SIGNALS) process.off(name, onSignal)
  // POSIX: end by the signal itself, with its default action now that no handler is left.
  if (process.platform !== "win32") process.kill(process.pid, signal)
  process.exit(exitStatusOfSignal(signal))
}

function unknownCommand(name: string): never {
  const names = Object.keys(commands)
  throw new ToolTesterError(
    "USAGE",
    `unknown command "${name}"${didYouMean(name, names)} (commands: ${names.join(", ")}; see tool-tester --help)`,
    {
      data: { command: name },
    },
  )
}

function version(read: typeof import("node:fs").readFileSync): string {
  const manifest = JSON.parse(read(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string
  }
  return manifest.version
}

/** The words that run this bin again, for the help's examples. */
async function invocation(): Promise<string> {
  return (await import("./invocation.ts")).toolTesterCommand(io)
}
