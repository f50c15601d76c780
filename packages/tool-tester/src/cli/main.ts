// The `tool-tester` bin: argv -> command -> exit code. The only module that reads `process`.
// The worker that will load the tools is started first, before anything else is imported, so its
// start-up overlaps ours; commands are imported on demand, so `run` does not load what `e2e` needs.
// Type-only imports are erased: they do not delay the worker.
import type { CliIO } from "./_command.ts"
import { chooseEngineEarly } from "./engine-option.ts"
import type { StartedWorker } from "./isolate.ts"
import { startWorker } from "./isolate.ts"

const argv = process.argv.slice(2)
const WORKER_COMMANDS = ["list", "schema", "run", "doctor"] as const
const needsWorker = WORKER_COMMANDS.find(
  (command) => command === argv[0] && !argv.includes("-h") && !argv.includes("--help"),
)
// The engine is chosen from --engine / --engine-binary / the environment before anything else, so
// that it starts while the rest of the CLI loads. A bad choice is reported once the CLI is up.
const early = needsWorker ? chooseEngineEarly(argv, process.env) : undefined
const worker = needsWorker && early?.chosen ? startWorker(needsWorker, early.chosen.selection) : undefined
// The node engine's worker sorts the tool list in this process; the bun engine does it in Bun.
if (worker && worker.source === undefined) (await import("./_warm-up.ts")).warmProcessCaches()

const { readFileSync } = await import("node:fs")
const { ToolTesterError } = await import("../errors.ts")
const { reportFailure } = await import("./_command.ts")
const { setColor, shouldColor } = await import("./_color.ts")
const { EXIT_USAGE, exitCodeFor } = await import("./exit-codes.ts")
const { installEngine } = await import("./engine-option.ts")

const helpMessage = `Usage: tool-tester <command> [options]

Run opencode custom tools through opencode's own tool pipeline, without a model.

Commands:
  list     The tools opencode would offer, in its order
  schema   The custom and plugin tools exactly as the provider receives them
  run      Run one tool; prints exactly what the model would read
  doctor   Why a tool will not work in opencode, one line per finding
  e2e      Drive the real opencode binary with a scripted mock model

Usage:
  tool-tester list   [--dir DIR] [--plugin SPEC]... [--provider NPM] [--model ID] [--no-global] [--json]
  tool-tester schema [--dir DIR] [--plugin SPEC]... [--tool ID] [--provider NPM] [--model ID] [--no-global] [--json]
  tool-tester run    NAME [--dir DIR] [--plugin SPEC]... [--args JSON | --raw-args TEXT | key=value ...]
                     [--validate] [--deny PERMISSION]... [--max-lines N] [--max-bytes N] [--timeout MS]
                     [--provider NPM] [--model ID] [--data-dir DIR] [--no-global] [--json]
  tool-tester doctor [--dir DIR] [--plugin SPEC]... [--no-global] [--json]
  (list, schema, run and doctor also take [--engine auto|bun|node] [--engine-binary PATH])
  tool-tester e2e    [--dir DIR] [--plugin SPEC]... --script SCRIPT.json [--opencode PATH | --opencode-version V]
                     [--model ID] [--provider NPM] [--config JSON] [--timeout MS] [--json]

Options:
  --dir DIR            Project directory (default: the working directory)
  --plugin SPEC        Also load this plugin: a module path, a package folder or a package name
  --no-global          Leave out the user-level config folders (~/.config/opencode, ~/.opencode)
  --engine E           What loads and runs the tools: bun (opencode's runtime, from the opencode
                       on PATH, an installed opencode or npm's bun), node, or auto (default: bun when
                       found, else node); also TOOL_TESTER_ENGINE
  --engine-binary PATH The opencode or bun executable for the bun engine; also TOOL_TESTER_ENGINE_BINARY
  --provider NPM       The provider's npm package (default @ai-sdk/openai-compatible)
  --model ID           The model id (default mock-model); with --provider it selects built-ins and schema fixes
  --tool ID            schema: only this tool
  --args JSON          run: the arguments as a JSON object
  --raw-args TEXT      run: the argument text as a model sends it (bad JSON is rerouted to invalid)
  key=value            run: arguments read by the tool's schema (n=5 is a number where it says number)
  --validate           run: check the arguments with the tool's zod schema first (opencode 1.18 does not)
  --deny PERMISSION    run: add a deny rule (--deny task switches the truncation hint)
  --max-lines N        run: truncation line limit (default: config tool_output, else 2000)
  --max-bytes N        run: truncation byte limit (default: config tool_output, else 51200)
  --timeout MS         run: abort the tool after MS ms, then stop it (default 60000); e2e: bound the whole run (default 90000)
  --data-dir DIR       run: where truncated outputs are saved (default: a temporary folder)
  --json               Machine-readable output on stdout; failures as one JSON line on stderr
  -h, --help           Show this help
  -v, --version        Show the version

Exit codes:
  0 ran and completed    1 usage (or no engine)    2 arguments failed validation    3 a file failed to load or the
  tool list would break  4 the tool threw or returned something opencode cannot send
  5 timeout              6 the call was rerouted to invalid

Docs: docs/cli.md`

type Command = (argv: string[], io: CliIO, worker: StartedWorker | undefined) => Promise<number>

const commands: Record<string, () => Promise<Command>> = {
  list: async () => (await import("./commands/list.ts")).listCommand,
  schema: async () => (await import("./commands/schema.ts")).schemaCommand,
  run: async () => (await import("./commands/run.ts")).runCommand,
  doctor: async () => (await import("./commands/doctor.ts")).doctorCommand,
  e2e: async () => (await import("./commands/e2e.ts")).e2eCommand,
}

const json = argv.includes("--json")
const io: CliIO = {
  cwd: process.cwd(),
  env: process.env,
  stdoutIsTTY: process.stdout.isTTY === true,
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
  if (name === "-h" || name === "--help" || name === "help") {
    io.write(`${helpMessage}\n`)
    return 0
  }
  if (name === "-v" || name === "--version") {
    io.write(`${version()}\n`)
    return 0
  }
  if (name === undefined) {
    io.writeError(`${helpMessage}\n`)
    return EXIT_USAGE
  }
  const load = commands[name]
  if (!load) throw new ToolTesterError("USAGE", `unknown command "${name}": use list, schema, run, doctor or e2e`)
  if (rest.includes("-h") || rest.includes("--help")) {
    io.write(`${helpMessage}\n`)
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
    if (!needsWorker)
      return // Nothing a tool started outlives the run (the bun engine's process group is ended already).
    ;(await import("./_descendants.ts")).killDescendants(process.pid)
    // Exit as soon as the report is out, rather than wait for the worker's thread to wind down;
    // this also ends a worker started for a command that then failed its usage checks.
    await Promise.all([drained(process.stdout), drained(process.stderr)])
    process.exit()
  })

// --- internal ---

/** Resolves once everything written to the stream has been handed to the system. */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength === 0) return Promise.resolve()
  return new Promise((resolve) => {
    stream.once("drain", resolve)
    stream.once("error", resolve)
  })
}

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string
  }
  return manifest.version
}
