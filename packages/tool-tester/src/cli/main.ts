// The `tool-tester` bin: argv -> command -> exit code. The only module that reads `process`.
// Nothing is imported before argv is read: `--version` loads only the manifest (bin.js answers it
// before this module loads, and leaves it here only when its write failed), and the engine that
// will load the tools is started next, before the rest is imported, so its start-up overlaps ours;
// commands are imported on demand (_run-command-line.ts), so `run` does not load what `e2e` needs.
// Type-only imports are erased: they load nothing.

import type { CliIO } from "./_command.ts"
import type { EarlyEngine } from "./engine-option.ts"

/**
 * The opencode version tool-tester models, written here (and in bin.js) so that `--version` loads
 * nothing more: the same as opencode/opencode-version.ts, which _run-command-line.ts reads
 * (test/cli/usage.test.ts checks all three).
 */
const MODELLED_OPENCODE = "1.18.34"

const argv = process.argv.slice(2)
// `--version` needs nothing but the manifest: answered before anything else loads.
if (argv[0] === "-v" || argv[0] === "--version") {
  const { readFileSync } = await import("node:fs")
  const { flushStdio } = await import("../_flush-stdio.ts")
  process.stdout.write(`${version(readFileSync)} (models opencode ${MODELLED_OPENCODE})\n`)
  await flushStdio()
  const lost = erroredOutput()
  if (lost !== undefined) await reportLostOutput(lost, false)
  process.exit()
}
// The engine is chosen from --engine / --engine-binary / the environment and started before the
// rest loads; the engine modules load only for the commands that need an engine. A bad choice is
// reported once the CLI is up.
const { invocationDirectory } = await import("./project-directory.ts")
// Where the user typed the command, also when the package manager started us in .opencode.
const cwd = invocationDirectory(process.cwd(), process.env)
// The help and the commands that load no tools start no engine, and load none of its modules.
const { engineCommand } = await import("./engine-command.ts")
const early: EarlyEngine =
  engineCommand(argv) === undefined
    ? { command: undefined, choice: undefined, engine: undefined }
    : await (await import("./engine-option.ts")).startEngineEarly(argv, process.env, cwd)

const { runCommandLine } = await import("./_run-command-line.ts")
const { flushStdio } = await import("../_flush-stdio.ts")

const { optionWords } = await import("./option-words.ts")
const { aroundWarnings } = await import("./node-warnings.ts")
const json = optionWords(argv).includes("--json")
/** What ends the CLI from outside: each is handled (docs/cli.md, "Signals"). */
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const
const interruptHandlers = new Set<(signal: NodeJS.Signals) => void>()
const io: CliIO = {
  cwd,
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
  aroundWarnings: aroundWarnings(process),
}
let interrupted = false
for (const signal of SIGNALS) process.on(signal, onSignal)
// A reader that stops early (`| head`) is not an error of ours. Any other failed write (a full
// disk, EIO) lost output the user expected: said once the command is done, never as a success.
let outputError: LostOutput | undefined
for (const [name, stream] of [
  ["stdout", process.stdout],
  ["stderr", process.stderr],
] as const) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0)
    outputError ??= { error, stream: name }
  })
}

process.exitCode = await runCommandLine(argv, io, early)
// Exit as soon as the report is out: nothing a tool started outlives the run (the engine's process
// group is ended with it), and an engine started for a command that then failed its usage checks
// ends with this process.
await flushStdio()
// A failed write is known at once (`errored`), its error event only a turn later.
outputError ??= erroredOutput()
if (outputError !== undefined) await reportLostOutput(outputError, json)
process.exit()

type LostOutput = { error: NodeJS.ErrnoException; stream: "stdout" | "stderr" }

/** Which of stdout and stderr failed a write that is not EPIPE, with its error. */
function erroredOutput(): LostOutput | undefined {
  for (const name of ["stdout", "stderr"] as const) {
    const error = process[name].errored as NodeJS.ErrnoException | null | undefined
    if (error && error.code !== "EPIPE") return { error, stream: name }
  }
  return undefined
}

/** OUTPUT_FAILED on stderr (which may take it when stdout could not), and a status that is no success. */
async function reportLostOutput(lost: LostOutput, json: boolean): Promise<void> {
  const { formatFailure } = await import("./report.ts")
  const { flushStdio: flushed } = await import("../_flush-stdio.ts")
  const failure = {
    code: "OUTPUT_FAILED",
    message: `tool-tester could not write its ${lost.stream} (${lost.error.code ?? lost.error.message}): what it printed there is lost; send it where there is room (another disk, or the terminal) and run the command again`,
  }
  process.stderr.write(json ? `${JSON.stringify({ error: failure })}\n` : formatFailure(failure))
  await flushed()
  if (process.exitCode === 0 || process.exitCode === undefined) process.exitCode = 1
}

// --- internal ---

/**
 * Ctrl-C, SIGTERM or a hang-up. A command that stops on its own (e2e, eval, preflight, dev, watch)
 * is told, once; otherwise, or at a second signal, everything the CLI started is ended here and
 * now (an engine busy in a loop would never notice: it runs no code of ours), and the CLI ends by
 * that signal, which shells report as 128 + its number. A SIGKILL runs none of this: the reaper
 * (src/runtime/reaper.ts) ends what is left then.
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
  const { endGuarded } = await import("../runtime/reaper.ts")
  const { exitStatusOfSignal } = await import("../engine-client/spawn-engine.ts")
  const { reportFailure } = await import("./_command.ts")
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

function version(read: typeof import("node:fs").readFileSync): string {
  const manifest = JSON.parse(read(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string
  }
  return manifest.version
}
