// The bin's end of the CLI (_run-command-line.ts): this process's arguments, environment, working
// folder, home and streams in, its exit code out. The only module that touches `process`.
import { homedir } from "node:os"
import { runCommandLine } from "./_run-command-line.ts"

// A reader that stops early (`| head`, `| true`) closes the pipe, and the next write fails with
// EPIPE, which Node raises as an error event: unhandled, it was a stack trace and exit 1 after the
// files were written (the summary comes last). The output has no reader, so it is dropped and the
// run goes on to its end, with its own status (tool-tester's CLI ignores EPIPE too, in its
// cli/main.ts; it exits at once, which here could end a run before its files are written, when a
// note on stderr meets a closed pipe). Any other error writing (EIO, a full disk) loses output the
// user expected: one line on stderr says so, where that can still be written, and the status is 1.
let outputError: NodeJS.ErrnoException | undefined
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") outputError ??= error
  })
}
process.on("exit", () => {
  if (outputError === undefined) return
  try {
    process.stderr.write(`✖ Cannot write create-tool's output: ${outputError.code ?? outputError.message}.\n`)
  } catch {}
  process.exitCode = 1
})

process.exitCode = await runCommandLine({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  home: homedir(),
  terminal: process.stdin.isTTY === true && process.stdout.isTTY === true,
  stdoutIsTTY: process.stdout.isTTY === true,
  write: (text) => void process.stdout.write(text),
  writeError: (text) => void process.stderr.write(text),
})
