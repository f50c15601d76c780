// Runs npm or pnpm for preflight and keeps what it printed, for the finding that names a failure.
import { ENGINE_MARK, endMarked } from "../runtime/process-tree.ts"
import { startProgram } from "../runtime/start-program.ts"

export type CommandOutput = {
  exitCode: number
  stdout: string
  stderr: string
  /** How many processes the command left running when it exited (its scripts' background processes), all ended. */
  leftRunning: number
}

/** How long the pipes may stay open after the command exits, held by a process it left that did not carry the mark. */
const PIPE_GRACE_MS = 2_000

/**
 * Runs `command args` in `cwd` and resolves with its exit code and output (never rejects: a
 * command that cannot start exits 127 with the reason on stderr). Whatever it started and left
 * running (a script's background process) is ended when it exits: it carries a mark of its own.
 * The answer comes when the command exits, not when its pipes close: a process it left holds them
 * open (`npm pack` exits, its prepack's `server &` keeps writing), and is not waited for.
 */
export function commandOutput(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string | undefined> },
): Promise<CommandOutput> {
  return new Promise((resolve) => {
    const mark = `preflight-${process.pid}-${Math.random().toString(36).slice(2, 10)}`
    const child = startProgram(command, args, {
      cwd: options.cwd,
      env: { ...childEnv(options.env), [ENGINE_MARK]: mark },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("error", (error) =>
      resolve({ exitCode: 127, stdout, stderr: `${stderr}${error.message}`, leftRunning: 0 }),
    )
    child.on("exit", (code) => {
      const leftRunning = endMarked(mark).length
      // What it printed last is read once the pipes close, which they do when what held them was ended.
      const timer = setTimeout(() => {
        child.stdout.destroy()
        child.stderr.destroy()
      }, PIPE_GRACE_MS)
      child.once("close", () => {
        clearTimeout(timer)
        resolve({ exitCode: code ?? 1, stdout, stderr, leftRunning })
      })
    })
  })
}

/** The last lines of what a command printed, for a one-line message. */
export function lastLines(output: CommandOutput, count = 3): string {
  const lines = `${output.stderr}\n${output.stdout}`
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
  return lines.slice(-count).join(" / ")
}

// --- internal ---

/**
 * The environment without what an outer npm or pnpm run passes down and would change the result:
 * `npm publish --dry-run` running preflight in prepublishOnly sets npm_config_dry_run, which would
 * make the pack write no tarball.
 */
function childEnv(env: Record<string, string | undefined>): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue
    if (/^npm_config_(dry_run|dry-run|global|prefix|workspaces?|include_workspace_root)$/i.test(key)) continue
    kept[key] = value
  }
  return kept
}
