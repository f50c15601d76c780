// The bin run by Bun (`bun node_modules/.bin/tool-tester`, `bunx --bun @opencode-ai/tool-tester`,
// `BUN_BE_BUN=1 opencode .../bin.js`). Bun installs from the registry what a module imports and
// cannot find when no node_modules folder is around (auto-install): the CLI's own process resolves
// plugins named in opencode.json and imports tool files in some commands (e2e --init, dev), and
// would fetch them. opencode's Bun never does (docs/opencode-contract.md#bun-runtime), and
// tool-tester downloads nothing unless asked, so the CLI runs in a Bun started with --no-install,
// as the engines are (spawn-engine.ts). Imported by bin.js only in Bun.
import { type ChildProcess, spawn } from "node:child_process"
import { autoInstallChosen } from "../runtime/auto-install.ts"
import { withoutEmptyFolders } from "../runtime/folder-variables.ts"

/**
 * In Bun whose auto-install is left at its default: runs this bin again in the same Bun with
 * `--no-install`, passes the exit status (or the signal) on, and returns true; else false, and the
 * caller goes on in this process.
 */
export function rerunWithoutAutoInstall(process: NodeJS.Process = globalThis.process): boolean {
  if (typeof process.versions.bun !== "string" || autoInstallChosen(process.execArgv)) return false
  const child = spawn(
    process.execPath,
    [...process.execArgv, "--no-install", ...process.argv.slice(1)],
    // The environment as it is: BUN_BE_BUN=1 keeps an opencode executable acting as Bun.
    // (An empty folder variable counts as unset: runtime/folder-variables.ts.)
    { stdio: "inherit", env: withoutEmptyFolders(process.env) },
  )
  forwardSignals(process, child)
  child.on("error", (error) => {
    process.stderr.write(`tool-tester: could not start ${process.execPath} again with --no-install: ${error.message}\n`)
    process.exitCode = 1
  })
  child.on("exit", (code, signal) => {
    if (signal !== null) {
      process.removeAllListeners(signal)
      process.kill(process.pid, signal)
      return
    }
    process.exitCode = code ?? 1
  })
  return true
}

// --- internal ---

/**
 * SIGTERM and SIGHUP reach this process alone: they are passed on. Ctrl-C in a terminal reaches
 * both processes (one foreground group) and the CLI takes a second SIGINT as "stop now", so SIGINT
 * is passed on only when it cannot have come from a terminal (stdin is not one).
 */
function forwardSignals(process: NodeJS.Process, child: ChildProcess): void {
  const signals: NodeJS.Signals[] =
    process.platform === "win32" ? ["SIGINT", "SIGTERM"] : ["SIGINT", "SIGTERM", "SIGHUP"]
  for (const signal of signals) {
    process.on(signal, () => {
      if (signal === "SIGINT" && process.stdin.isTTY === true) return
      try {
        child.kill(signal)
      } catch {}
    })
  }
}
