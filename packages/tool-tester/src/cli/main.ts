// The `tool-tester` bin: argv -> command -> exit code. The only module that reads `process`.
// Nothing is imported before argv is read: `--version` loads only the manifest, and the engine that
// will load the tools is started next, before the rest is imported, so its start-up overlaps ours;
// commands are imported on demand (_run-command-line.ts), so `run` does not load what `e2e` needs.
// Type-only imports are erased: they load nothing.

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
// The engine is chosen from --engine / --engine-binary / the environment and started before the
// rest loads; the engine modules load only for the commands that need an engine. A bad choice is
// reported once the CLI is up.
const { startEngineEarly } = await import("./engine-option.ts")
const early = await startEngineEarly(argv, process.env)

const { runCommandLine } = await import("./_run-command-line.ts")
const { flushStdio } = await import("../_flush-stdio.ts")

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
    process.once("SIGINT", handler)
    process.once("SIGTERM", handler)
    return () => {
      process.off("SIGINT", handler)
      process.off("SIGTERM", handler)
    }
  },
}
// A reader that stops early (`| head`) is not an error of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0)
    throw error
  })
}

process.exitCode = await runCommandLine(argv, io, early)
// Exit as soon as the report is out: nothing a tool started outlives the run (the engine's process
// group is ended with it), and an engine started for a command that then failed its usage checks
// ends with this process.
await flushStdio()
process.exit()

// --- internal ---

function version(read: typeof import("node:fs").readFileSync): string {
  const manifest = JSON.parse(read(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string
  }
  return manifest.version
}
