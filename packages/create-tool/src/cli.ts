// The bin's end of the CLI (_run-command-line.ts): this process's arguments, environment, working
// folder, home and streams in, its exit code out. The only module that touches `process`.
import { homedir } from "node:os"
import { runCommandLine } from "./_run-command-line.ts"

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
