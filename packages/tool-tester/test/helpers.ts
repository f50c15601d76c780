import type { ChildProcessWithoutNullStreams } from "node:child_process"
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { onTestFinished } from "vitest"
import type { CliIO } from "../src/cli/_command.ts"
import { findOpencode, testedOpencodeVersion } from "../src/opencode/opencode-binary.ts"
import { isolatedHome } from "./support/isolated-home.ts"

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
/**
 * The opencode binary the repository installs for this platform (for e2e, and run as Bun by the
 * bun engine), or why there is none: tests that need it skip with `reason`
 * (`test.skipIf(!opencode.binary)(\`... (\${opencode.reason})\`)`), and .ci/run fails on Linux
 * if any test skipped.
 */
export const opencode: { binary: string; reason?: undefined } | { binary: undefined; reason: string } =
  repositoryOpencode()
const bin = path.join(packageRoot, "bin.js")

function repositoryOpencode(): { binary: string } | { binary: undefined; reason: string } {
  const binary = findOpencode({ directory: packageRoot, path: false })
  if (binary !== undefined) return { binary }
  return {
    binary: undefined,
    reason: `no opencode binary for ${process.platform}-${process.arch}: run node scripts/install-opencode.mjs to install opencode ${testedOpencodeVersion} for it`,
  }
}

/**
 * A fresh folder under the OS temp folder, removed when the test finishes. Its real path: macOS's
 * temp folder is behind a link (/var is /private/var) and Windows' may be an 8.3 short name
 * (RUNNER~1), while a process started in the folder sees the long, real one.
 */
export function useTmpDir(prefix = "tool-tester-"): string {
  const directory = realpathSync.native(mkdtempSync(path.join(os.tmpdir(), prefix)))
  onTestFinished(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

/** The folder of a fixture project in test/fixtures. */
export function fixture(name: string): string {
  return path.join(packageRoot, "test", "fixtures", name)
}

/** Writes files (relative path -> content) under a folder, creating parent folders. */
export function writeFiles(directory: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(directory, name)
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, content)
  }
}

export type CliResult = { exitCode: number | null; stdout: string; stderr: string }

type CliOptions = {
  cwd?: string
  env?: Record<string, string | undefined>
  home?: string
  launcher?: boolean
  /** In-process only: the command's stdout and stderr are a terminal (main.ts reads isTTY), with no pseudo-terminal needed on any OS. */
  terminal?: boolean
  /** Runs bin.js with this executable instead of this Node (an opencode binary acts as Bun with BUN_BE_BUN=1 in env). */
  runtime?: string
  /** Called with the child once started (to read its output slowly, say). */
  onSpawn?: (child: ChildProcessWithoutNullStreams) => void
  /** runBin only: a file descriptor the bin gets as its stdout instead of a pipe (its stdout is then "" here). */
  stdoutFd?: number
}

/**
 * Runs a tool-tester command line as a user's shell would, with a throw-away HOME and XDG folders
 * (the developer's own opencode config never leaks in), without colours and without the plain
 * progress lines a run over 10 s writes on stderr off a terminal (TOOL_TESTER_PROGRESS_MS=0, so a
 * slow machine does not change a test's stderr) unless `env` asks.
 * In this process, through the same code the bin runs (src/cli/_run-command-line.ts) with the
 * environment and working directory the bin would have; the engines are the built ones. With
 * `launcher`, `runtime` or `onSpawn`, the built bin itself (runBin).
 */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  if (options.launcher || options.runtime !== undefined || options.onSpawn !== undefined) return runBin(args, options)
  const env = cliEnvironment(options)
  const cwd = options.cwd ?? packageRoot
  // One command line at a time: each one has this process's environment and working directory.
  const result = inProcessQueue.then(() => runInProcess(args, env, cwd, options.terminal ?? false))
  inProcessQueue = result.catch(() => undefined)
  return result
}

/**
 * Runs the BUILT bin (`node bin.js ...`, or with `launcher` the file itself, as a shell runs it),
 * for what only the bin shows: its exit status, signals, what reaches the pipes before it exits,
 * the runtime it runs in. Same environment as runCli.
 */
export function runBin(args: string[], options: CliOptions = {}): Promise<CliResult> {
  if (!existsSync(path.join(packageRoot, "dist", "cli", "main.js"))) {
    throw new Error("Build tool-tester first: cd packages/tool-tester && npm run build")
  }
  const env = cliEnvironment(options)
  const [command, ...rest] = options.launcher ? [bin, ...args] : [options.runtime ?? process.execPath, bin, ...args]
  const stdio = ["pipe", options.stdoutFd ?? "pipe", "pipe"] as const
  const child = spawn(command!, rest, { cwd: options.cwd ?? packageRoot, env, stdio: [...stdio] })
  options.onSpawn?.(child as ChildProcessWithoutNullStreams)
  return collectOutput(child as ChildProcessWithoutNullStreams)
}

/** A started process's exit code and everything it printed, once it has closed. */
export function collectOutput(child: ChildProcessWithoutNullStreams): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = ""
    let stderr = ""
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("error", reject)
    child.on("close", (exitCode) => resolve({ exitCode, stdout, stderr }))
  })
}

/** The one JSON failure line a command prints on stderr with --json. */
export function jsonError(result: CliResult): { code: string; message: string } {
  const lines = result.stderr.trim().split("\n")
  return (JSON.parse(lines.at(-1)!) as { error: { code: string; message: string } }).error
}

/** The characters in `text` a terminal would act on rather than show (tab and newline aside). */
export function rawControlCharacters(text: string): string[] {
  return [...text].filter((char) => {
    const code = char.codePointAt(0)!
    return (
      (code < 0x20 && char !== "\n" && char !== "\t") ||
      (code >= 0x7f && code <= 0x9f) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069)
    )
  })
}

// --- internal ---

let inProcessQueue: Promise<unknown> = Promise.resolve()

/** The environment the bin is started with. */
function cliEnvironment(options: CliOptions): Record<string, string> {
  if (!existsSync(path.join(packageRoot, "dist", "engine", "node-serve.js"))) {
    throw new Error("Build tool-tester first: cd packages/tool-tester && npm run build")
  }
  const home = options.home ?? useTmpDir("tool-tester-home-")
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      // npm_* (npm_config_user_agent, npm_execpath) and INIT_CWD: a package manager running the
      // suite is not the one a user's shell starts the bin with (printed commands follow it).
      ([key]) =>
        !key.startsWith("OPENCODE_") &&
        !key.startsWith("npm_") &&
        key !== "INIT_CWD" &&
        !["FORCE_COLOR", "NO_COLOR", "NODE_OPTIONS", "TOOL_TESTER_PROGRESS_MS"].includes(key),
    ),
  )
  const merged: Record<string, string | undefined> = {
    ...inherited,
    ...isolatedHome(home),
    NO_COLOR: "1",
    TOOL_TESTER_PROGRESS_MS: "0",
    ...options.env,
  }
  // A key set to undefined in options.env is removed (to run without NO_COLOR, for example).
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)) as Record<string, string>
}

/**
 * One command line in this process, as main.ts runs it: this process's environment and working
 * directory are the bin's for the duration (what the CLI and the engines it starts read), then
 * restored; an engine started for a command that failed before using it is ended, as the bin's
 * exit ends it.
 */
async function runInProcess(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  terminal: boolean,
): Promise<CliResult> {
  const { startEngineEarly } = await import("../src/cli/engine-option.ts")
  const { runCommandLine } = await import("../src/cli/_run-command-line.ts")
  const savedEnv = { ...process.env }
  const savedCwd = process.cwd()
  setEnvironment(env)
  let stdout = ""
  let stderr = ""
  let early: Awaited<ReturnType<typeof startEngineEarly>> | undefined
  try {
    process.chdir(cwd)
    const started = await startEngineEarly(args, process.env, cwd)
    early = started
    const io: CliIO = {
      cwd,
      bin,
      env: process.env,
      stdoutIsTTY: terminal,
      stderrIsTTY: terminal,
      write: (text) => {
        stdout += text
      },
      writeError: (text) => {
        stderr += text
      },
      chdir: (directory) => process.chdir(directory),
      onInterrupt: () => () => {},
    }
    const exitCode = await runCommandLine(args, io, started)
    return { exitCode, stdout, stderr }
  } finally {
    const connection = await early?.engine?.connection
    if (connection !== undefined) {
      const ended = await Promise.race([connection.exited.then(() => true), new Promise((r) => setImmediate(r, false))])
      if (!ended) {
        connection.end()
        await connection.exited
      }
    }
    process.chdir(savedCwd)
    setEnvironment(savedEnv)
  }
}

/** Makes process.env hold exactly `env` (key by key, so that the system environment follows: os.homedir()). */
function setEnvironment(env: Record<string, string | undefined>): void {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key]
  for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value
}

/** A command's CliIO for calling its functions directly: no terminal, what it writes kept in memory. */
export function captureIO(): { io: CliIO; out: () => string; err: () => string } {
  let stdout = ""
  let stderr = ""
  const io: CliIO = {
    cwd: process.cwd(),
    env: {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
    write: (text) => (stdout += text),
    writeError: (text) => (stderr += text),
    chdir: () => {},
    onInterrupt: () => () => {},
  }
  return { io, out: () => stdout, err: () => stderr }
}
