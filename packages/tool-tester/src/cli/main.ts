// The `tool-tester` bin: argv -> command -> exit code. The only module that reads `process`.
// The worker that will load the tools is started first, before anything else is imported, so its
// start-up overlaps ours; commands are imported on demand, so `run` does not load what `e2e` needs.
// Type-only imports are erased: they do not delay the worker.
import type { CliIO } from "./_command.ts"
import { hostableCommand, startBunHost, workerCommand } from "./bun-early.ts"
import type { StartedWorker } from "./isolate.ts"
import { startWorker } from "./isolate.ts"

const argv = process.argv.slice(2)
const needsWorker = workerCommand(argv)
// Started in Bun by bin.js's launcher, with the Bun it found: that Bun's engine is already
// starting (bin.js started it), and is kept when the CLI's own choice agrees (docs/cli.md).
const bunHost = startBunHost(argv, process.env)
const hostable = hostableCommand(argv)
const optimistic =
  bunHost && hostable ? startWorker(hostable, { name: "bun", location: bunHost.location }, bunHost.started) : undefined
// The engine is chosen from --engine / --engine-binary / the environment before anything else, so
// that it starts while the rest of the CLI loads. A bad choice is reported once the CLI is up.
const { chooseEngineEarly } = await import("./engine-option.ts")
const early = needsWorker ? chooseEngineEarly(argv, process.env, { runningBun: !bunHost }) : undefined
const chosen = early?.chosen?.selection
if (bunHost && (!hostable || chosen?.name !== "bun")) {
  // Only the bun engine runs here: anything else is Node's to do (the launcher rarely sends it).
  void optimistic?.host.stop(0)
  await (await import("./bun-host.ts")).runInNode(argv)
}
const worker = (() => {
  if (!needsWorker || chosen === undefined) return undefined
  if (optimistic && chosen.name === "bun" && sameLocation(chosen.location, bunHost?.location)) return optimistic
  void optimistic?.host.stop(0)
  return startWorker(needsWorker, chosen)
})()
// The node engine's worker sorts the tool list in this process; the bun engine does it in Bun.
if (worker && worker.source === undefined) (await import("./_warm-up.ts")).warmProcessCaches()

const { readFileSync } = await import("node:fs")
const { ToolTesterError } = await import("../errors.ts")
const { reportFailure } = await import("./_command.ts")
const { setColor, shouldColor } = await import("./_color.ts")
const { EXIT_USAGE, exitCodeFor } = await import("./exit-codes.ts")
const { installEngine } = await import("./engine-option.ts")
const { flushStdio, rememberBunHost } = await import("./bun-host.ts")

const { commandHelp, globalHelp } = await import("./command-help.ts")
const { didYouMean } = await import("./did-you-mean.ts")

type Command = (argv: string[], io: CliIO, worker: StartedWorker | undefined) => Promise<number>

const commands: Record<string, () => Promise<Command>> = {
  list: async () => (await import("./commands/list.ts")).listCommand,
  schema: async () => (await import("./commands/schema.ts")).schemaCommand,
  run: async () => (await import("./commands/run.ts")).runCommand,
  doctor: async () => (await import("./commands/doctor.ts")).doctorCommand,
  fuzz: async () => (await import("./commands/fuzz.ts")).fuzzCommand,
  e2e: async () => (await import("./commands/e2e.ts")).e2eCommand,
  dev: async () => (await import("./commands/dev.ts")).devCommand,
  preflight: async () => (await import("./commands/preflight.ts")).preflightCommand,
}

const json = argv.includes("--json")
const io: CliIO = {
  cwd: process.cwd(),
  env: process.env,
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  write: (text) => void process.stdout.write(text),
  writeError: (text) => void process.stderr.write(text),
  chdir: (directory) => process.chdir(directory),
  onInterrupt: (handler) => {
    process.once("SIGINT", handler)
    process.once("SIGTERM", handler)
    return () => {
      process.off("SIGINT", handler)
      process.off("SIGTERM", handler)
    }
  },
}
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
    io.write(`${commandHelp(rest[0]!) ?? unknownCommand(rest[0]!)}\n`)
    return 0
  }
  if (name === "-v" || name === "--version") {
    io.write(`${version()}\n`)
    return 0
  }
  if (name === undefined) {
    io.writeError(`${globalHelp()}\n`)
    return EXIT_USAGE
  }
  const load = commands[name]
  if (!load) unknownCommand(name)
  if (rest.includes("-h") || rest.includes("--help")) {
    io.write(`${commandHelp(name)}\n`)
    return 0
  }
  const command = await load()
  if (early?.error) throw early.error
  if (early?.chosen?.notice && !json) io.writeError(`${early.chosen.notice}\n`)
  // The bun engine was asked for and no Bun is here yet: install npm's, then start it.
  const started =
    worker ?? (needsWorker && early ? startWorker(needsWorker, (await installEngine(argv, io)).selection) : undefined)
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
    if (!needsWorker) return
    // Nothing a tool started outlives the run: the bun engine's process group is ended already,
    // what a tool on the node engine's thread started is a child of this process.
    if (!worker?.location) (await import("../engine/process-tree.ts")).endDescendants(process.pid)
    // A Bun that answered as the engine may start the next run's CLI (bin.js's launcher).
    if (worker?.location && worker.location.binary !== bunHost?.location.binary && worker.host.started())
      await rememberBunHost(worker.location, io.env)
    // Exit as soon as the report is out, rather than wait for the worker's thread to wind down;
    // this also ends a worker started for a command that then failed its usage checks.
    await flushStdio()
    process.exit()
  })

// --- internal ---

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

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string
  }
  return manifest.version
}

function sameLocation(
  a: { binary: string; source: string },
  b: { binary: string; source: string } | undefined,
): boolean {
  return b !== undefined && a.binary === b.binary && a.source === b.source
}
