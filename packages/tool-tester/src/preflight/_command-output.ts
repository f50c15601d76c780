// Runs npm or pnpm for preflight and keeps what it printed, for the finding that names a failure.
import { ENGINE_MARK, endMarked, endProcessTree } from "../runtime/process-tree.ts"
import { guard } from "../runtime/reaper.ts"
import { startProgram } from "../runtime/start-program.ts"

export type CommandOutput = {
  exitCode: number
  stdout: string
  stderr: string
  /** How many processes the command left running when it exited (its scripts' background processes), all ended. */
  leftRunning: number
  /** It ran past `timeoutMs` and was ended, with everything it started. */
  timedOut: boolean
}

/** How long the pipes may stay open after the command exits, held by a process it left that did not carry the mark. */
const PIPE_GRACE_MS = 2_000

/**
 * Runs `command args` in `cwd` and resolves with its exit code and output (never rejects: a
 * command that cannot start exits 127 with the reason on stderr). Whatever it started and left
 * running (a script's background process) is ended when it exits: it carries a mark of its own.
 * The answer comes when the command exits, not when its pipes close: a process it left holds them
 * open (`npm pack` exits, its prepack's `server &` keeps writing), and is not waited for.
 * `signal` (Ctrl-C) ends the command and all it started at once (a script that hangs would
 * otherwise hold preflight for ever); the caller sees the signal aborted. So does `timeoutMs`,
 * without Ctrl-C: the answer then says `timedOut`. The command is guarded
 * (runtime/reaper.ts): a CLI that exits without waiting (a second Ctrl-C) or is killed leaves
 * none of it running.
 */
export function commandOutput(
  command: string,
  args: readonly string[],
  options: {
    cwd: string
    env: Record<string, string | undefined>
    signal?: AbortSignal | undefined
    timeoutMs: number
  },
): Promise<CommandOutput> {
  return new Promise((resolve) => {
    const mark = `${MARK_PREFIX}${process.pid}-${Math.random().toString(36).slice(2, 10)}`
    const child = startProgram(command, args, {
      cwd: options.cwd,
      env: { ...childEnv(options.env), [ENGINE_MARK]: mark },
      stdio: ["ignore", "pipe", "pipe"],
      // POSIX: a process group of its own, ended whole; Windows: taskkill /T follows the tree.
      detached: process.platform !== "win32",
      windowsHide: true,
    })
    const guarded = guard(child.pid === undefined ? { mark } : { tree: child.pid, group: child.pid, mark })
    const onAbort = () => {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) endProcessTree(child.pid)
      endMarked(mark)
    }
    if (options.signal?.aborted) onAbort()
    options.signal?.addEventListener("abort", onAbort, { once: true })
    let timedOut = false
    const bound = setTimeout(() => {
      timedOut = true
      onAbort()
    }, options.timeoutMs)
    const settle = (output: Omit<CommandOutput, "timedOut">) => {
      clearTimeout(bound)
      options.signal?.removeEventListener("abort", onAbort)
      guarded.release()
      resolve({ ...output, timedOut })
    }
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("error", (error) => settle({ exitCode: 127, stdout, stderr: `${stderr}${error.message}`, leftRunning: 0 }))
    child.on("exit", (code) => {
      clearTimeout(bound)
      const leftRunning = endMarked(mark).length
      // Its id may be given out again now: only the mark finds what it left.
      guarded.replace({ mark })
      // What it printed last is read once the pipes close, which they do when what held them was ended.
      const timer = setTimeout(() => {
        child.stdout.destroy()
        child.stderr.destroy()
      }, PIPE_GRACE_MS)
      child.once("close", () => {
        clearTimeout(timer)
        settle({ exitCode: code ?? 1, stdout, stderr, leftRunning })
      })
    })
  })
}

/**
 * Whether this process was started, through a script, by a command preflight runs: a `prepack` or
 * `prepare` script that runs preflight, which packs again, which runs the script again, without end.
 */
export function startedByPreflight(env: Record<string, string | undefined>): boolean {
  return env[ENGINE_MARK]?.startsWith(MARK_PREFIX) === true
}

/**
 * The last lines of what a command printed, for a one-line message: what its scripts printed when
 * they printed anything (a prepack's tsc errors: the reason to fix), else npm's or pnpm's own
 * account; never the JSON document `npm pack --json` ends its stdout with, nor the log's path.
 */
export function lastLines(output: CommandOutput, count = 3): string {
  const lines = [...nonEmptyLines(withoutJsonEnd(output.stdout)), ...nonEmptyLines(output.stderr)].filter(
    (line) => !/A complete log of this run can be found in/.test(line),
  )
  const scripts = lines.filter((line) => !PACKAGE_MANAGER_LINE.test(line))
  return (scripts.length > 0 ? scripts : lines).slice(-count).join(" / ")
}

/** The end of a message about a command that was ended (past its bound): what it printed last, where it stood; "" when it printed nothing. */
export function printedLast(output: CommandOutput): string {
  const last = lastLines(output)
  return last === "" ? "" : ` (it printed last: ${last})`
}

// --- internal ---

/** Starts the mark of every command preflight runs (and of what its scripts start). */
const MARK_PREFIX = "preflight-"

/** What npm and pnpm print of their own: errors and warnings, and the `> pkg@1.0.0 prepack` banners of scripts. */
const PACKAGE_MANAGER_LINE = /^(npm (error|ERR!|warn|WARN|notice)\b|> |ELIFECYCLE\b|ERR_PNPM_|WARN\b)/

function nonEmptyLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
}

/** `text` without the JSON document it ends with (from its last line that opens one), when it does. */
function withoutJsonEnd(text: string): string {
  const lines = text.trimEnd().split("\n")
  for (let start = lines.length - 1; start >= 0; start--) {
    if (lines[start] !== "{" && lines[start] !== "[") continue
    try {
      JSON.parse(lines.slice(start).join("\n"))
      return lines.slice(0, start).join("\n")
    } catch {
      return text
    }
  }
  return text
}

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
