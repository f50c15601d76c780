// A real opencode server for a project, started from the user's own opencode binary, as the server
// behind a plugin's `input.client` (docs/opencode-contract.md#server). `opencode serve` on
// 127.0.0.1 with a port the system picks, in the project's folder with the project's config (its
// plugins left out: they run in the engine), a random password (opencode's own basic auth), and
// its providers pointed at nothing: a model call (`session.prompt`) fails at once on a refused
// connection instead of leaving the machine.
import type { ChildProcess } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import path from "node:path"
import { ToolTesterError } from "../errors.ts"
import { scratchParent } from "../runtime/engine-temp.ts"
import { withoutEmptyFolders } from "../runtime/folder-variables.ts"
import { endProcessTree } from "../runtime/process-tree.ts"
import { guard } from "../runtime/reaper.ts"
import { startProgram } from "../runtime/start-program.ts"

/** A started server: its URL, the basic-auth header its requests need, its log, its end, and how to end it. */
export type RunningServer = {
  url: string
  authorization: string
  /** What the server printed (stdout and stderr), the last 64 KB. */
  log(): string
  /** Settles when its process has ended, however (stop() too): its exit code, or the signal that ended it. */
  exited: Promise<ServerExit>
  stop(): void
}

/** How a server's process ended: its exit code, or the signal that ended it. */
export type ServerExit = { code: number | null; signal: NodeJS.Signals | null }

export type StartServerOptions = {
  binary: string
  directory: string
  env: Record<string, string | undefined>
  /** How long the server may take to say where it listens (default 120 s: a loaded machine is slow). */
  timeoutMs?: number
  /** Told each line the server prints (`--verbose`). */
  onLog?: ((line: string) => void) | undefined
  /** The config on top of the project's own (`OPENCODE_CONFIG_CONTENT`; default {@link serverConfig}). */
  configContent?: Record<string, unknown>
  /** Leave the project's plugins out (`--pure`; default true). */
  pure?: boolean
  /**
   * Give the server a throw-away data, state and cache home of its own (default true). false: the
   * XDG folders in `env` are used as given (`tool-tester eval` brings its own data home and keeps
   * the user's cache).
   */
  ownHomes?: boolean
  /**
   * Read the user's own config (default true): the global config folder (its opencode.json, agents,
   * commands), `~/.opencode` and what else opencode finds in the home folder. false (`--no-global`):
   * an empty config home and home folder of the server's own.
   */
  global?: boolean
  /** The error a failed start becomes (default CLIENT_UNAVAILABLE, worded for input.client). */
  failure?: (message: string) => ToolTesterError
  /**
   * Abandons the start: the server is ended at once (not when it is up) and the start rejects with
   * the signal's reason, so nothing of it is left to touch folders its caller removes next.
   */
  signal?: AbortSignal
}

/** The provider every model of the server resolves to: a port on 127.0.0.1 that refuses connections. */
const NO_MODEL_PROVIDER = "tool-tester"

/** The config the server runs with on top of the project's own (OPENCODE_CONFIG_CONTENT wins over it). */
function serverConfig(): Record<string, unknown> {
  const model = `${NO_MODEL_PROVIDER}/none`
  return {
    enabled_providers: [NO_MODEL_PROVIDER],
    provider: {
      [NO_MODEL_PROVIDER]: {
        name: "tool-tester (no model)",
        npm: "@ai-sdk/openai-compatible",
        // Port 9 (discard) is not served on 127.0.0.1: the connection is refused at once.
        options: { baseURL: "http://127.0.0.1:9/v1", apiKey: "none" },
        models: { none: { name: "none" } },
      },
    },
    model,
    small_model: model,
    share: "disabled",
    autoupdate: false,
  }
}

export async function startOpencodeServer(options: StartServerOptions): Promise<RunningServer> {
  const password = randomBytes(18).toString("base64url")
  const unavailable = options.failure ?? clientUnavailable
  const timeoutMs = options.timeoutMs ?? 120_000
  // A free port the system picks: with --port=0 opencode takes 4096 when it is free, the port the
  // user's own opencode (and `opencode run`'s serverUrl) uses.
  const port = await freePort()
  options.signal?.throwIfAborted()
  const folder = serverFolder(options)
  const env = serverEnvironment(options, folder, password)
  let child: ChildProcess
  try {
    const logs = options.onLog ? ["--print-logs"] : []
    // --pure: the server does not load the project's plugins a second time (their init already ran
    // in the engine: twice would repeat its side effects, and an init that hangs would hang it).
    const pure = (options.pure ?? true) ? ["--pure"] : []
    child = startProgram(options.binary, ["serve", "--hostname=127.0.0.1", `--port=${port}`, ...pure, ...logs], {
      cwd: options.directory,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
    })
  } catch (error) {
    if (folder.data !== undefined) rmSync(folder.data, { recursive: true, force: true })
    throw unavailable(`${options.binary} could not be started: ${(error as Error).message}`)
  }
  const output = capturedOutput(child, options.onLog)
  // The server and its folder never outlive the process that started it, however that process
  // ends: at its exit, or by its reaper when it is killed or ends itself (an engine does, with
  // SIGKILL to its own group, and runs no exit hook then).
  const paths = folder.data === undefined ? [] : [folder.data]
  const guarded = guard({ ...(child.pid === undefined ? {} : { tree: child.pid }), paths })
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) endProcessTree(child.pid)
    if (folder.data !== undefined) rmSync(folder.data, { recursive: true, force: true, maxRetries: 3 })
    guarded.release()
  }
  // Abandoned (the project closed while its server started): ended now, not once it is up.
  const abandoned = whenAborted(options.signal, stop)
  try {
    const url = await Promise.race([
      listeningUrl(child, output, { binary: options.binary, timeoutMs }, (message) => {
        stop()
        return unavailable(message)
      }),
      abandoned.promise,
    ])
    // After the start, an exit is no longer a start failure: calls then fail on the refused connection.
    child.removeAllListeners("exit")
    child.removeAllListeners("error")
    child.on("error", () => {})
    // Ended, its id may be reused: only the folder is left to remove.
    child.once("exit", () => guarded.replace({ paths }))
    const exited = new Promise<ServerExit>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null)
        resolve({ code: child.exitCode, signal: child.signalCode })
      else child.once("exit", (code, signal) => resolve({ code, signal }))
    })
    const authorization = `Basic ${Buffer.from(`opencode:${password}`).toString("base64")}`
    try {
      await Promise.race([
        instanceStarted(url, authorization, options.directory, timeoutMs, unavailable),
        abandoned.promise,
      ])
    } catch (error) {
      stop()
      if (ToolTesterError.isInstance(error) || options.signal?.aborted) throw error
      const timedOut = (error as Error).name === "TimeoutError"
      throw unavailable(
        timedOut
          ? `the project's instance did not start within ${Math.round(timeoutMs / 1000)} s (a plugin that awaits a client call during init hangs opencode too)${lastWords(output.text())}`
          : `${(error as Error).message}${lastWords(output.text())}`,
      )
    }
    return { url, authorization, log: () => output.text(), exited, stop }
  } finally {
    abandoned.dispose()
  }
}

/** opencode's error answer in one line: `ConfigInvalidError: /p/opencode.json: model: Expected string, got 42`. */
export function serverError(body: string): string {
  try {
    const error = JSON.parse(body) as {
      name?: string
      data?: { path?: string; message?: string; issues?: Array<{ path?: unknown[]; message?: string }> }
    }
    const issues = (error.data?.issues ?? []).map((issue) => `${(issue.path ?? []).join(".")}: ${issue.message}`)
    const detail = [error.data?.path, error.data?.message, ...issues].filter(Boolean).join(": ")
    return `${error.name ?? "error"}${detail === "" ? "" : `: ${detail}`}`.slice(0, 500)
  } catch {
    return body.trim().slice(0, 500) || "an empty answer"
  }
}

// --- internal ---

/**
 * The server's own folder, when it needs one: its data, state, cache and temporary homes (`ownHomes`),
 * and its config home and home folder (`global: false`).
 */
type ServerFolder = { data: string | undefined; ownHomes: boolean; isolated: boolean }

function serverFolder(options: StartServerOptions): ServerFolder {
  // Its sessions, state and cache go to a folder of its own, removed with it: tool-tester's sessions
  // never show up in the user's opencode history, nor anything in the user's cache. Config and auth
  // stay the user's.
  const ownHomes = options.ownHomes ?? true
  const isolated = options.global === false
  // In an engine, below the engine's own temporary folder: the process that started the engine
  // removes it, whatever ends the engine (engine-temp.ts).
  const data = ownHomes || isolated ? mkdtempSync(path.join(scratchParent(), "tool-tester-server-")) : undefined
  if (data !== undefined && isolated) mkdirSync(path.join(data, "home"))
  if (data !== undefined && ownHomes) mkdirSync(path.join(data, "tmp"))
  return { data, ownHomes, isolated }
}

/** The server's environment: the caller's, its own folders, its password and opencode's switches. */
function serverEnvironment(
  options: StartServerOptions,
  folder: ServerFolder,
  password: string,
): Record<string, string> {
  const { data, ownHomes, isolated } = folder
  const env: Record<string, string> = {}
  // An empty folder variable counts as unset (folder-variables.ts), for opencode too.
  for (const [key, value] of Object.entries(withoutEmptyFolders(options.env))) {
    // The engine's own Bun switch would make the binary act as Bun instead of opencode; the
    // engine's OPENCODE and OPENCODE_PID say "inside opencode" to tools, not to a new opencode.
    if (value !== undefined && !["BUN_BE_BUN", "OPENCODE", "OPENCODE_PID"].includes(key)) env[key] = value
  }
  return Object.assign(env, {
    // opencode takes the project folder from PWD (docs/opencode-contract.md#driving-the-binary).
    PWD: options.directory,
    ...(data === undefined || !ownHomes
      ? {}
      : {
          XDG_DATA_HOME: path.join(data, "data"),
          XDG_STATE_HOME: path.join(data, "state"),
          XDG_CACHE_HOME: path.join(data, "cache"),
          // opencode makes `$TMPDIR/opencode` at start: in the server's folder, it goes with it.
          TMPDIR: path.join(data, "tmp"),
          TEMP: path.join(data, "tmp"),
          TMP: path.join(data, "tmp"),
        }),
    ...(data === undefined || !isolated
      ? {}
      : {
          XDG_CONFIG_HOME: path.join(data, "config"),
          HOME: path.join(data, "home"),
          USERPROFILE: path.join(data, "home"),
        }),
    OPENCODE_SERVER_USERNAME: "opencode",
    OPENCODE_SERVER_PASSWORD: password,
    OPENCODE_CONFIG_CONTENT: JSON.stringify(options.configContent ?? serverConfig()),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_EMBEDDED_WEB_UI: "1",
  })
}

/** What the server prints (stdout and stderr), the last 64 KB kept, each line told to `onLog`. */
function capturedOutput(child: ChildProcess, onLog: ((line: string) => void) | undefined): { text(): string } {
  let output = ""
  const record = (chunk: Buffer) => {
    const text = chunk.toString("utf8")
    output = (output + text).slice(-65_536)
    for (const line of text.split("\n")) if (line.trim() !== "") onLog?.(line)
  }
  child.stdout?.on("data", record)
  child.stderr?.on("data", record)
  return { text: () => output }
}

/**
 * The URL the server says it listens on. `fail` (which ends the server) makes the error of a start
 * that failed: no such line within `timeoutMs`, the program not started, or ended first.
 */
function listeningUrl(
  child: ChildProcess,
  output: { text(): string },
  limits: { binary: string; timeoutMs: number },
  fail: (message: string) => ToolTesterError,
): Promise<string> {
  const { binary, timeoutMs } = limits
  return new Promise<string>((resolve, reject) => {
    const failed = (message: string) => {
      clearTimeout(timer)
      reject(fail(message))
    }
    const timer = setTimeout(
      () =>
        failed(
          `opencode serve said nowhere that it listens within ${Math.round(timeoutMs / 1000)} s${lastWords(output.text())}`,
        ),
      timeoutMs,
    )
    const look = () => {
      const found = /opencode server listening on (https?:\/\/\S+)/.exec(output.text())
      if (!found?.[1]) return
      clearTimeout(timer)
      child.stdout?.off("data", look)
      resolve(found[1].replace(/\/$/, ""))
    }
    child.stdout?.on("data", look)
    child.once("error", (error) => failed(`${binary} could not be started: ${error.message}`))
    child.once("exit", (code, signal) =>
      failed(`opencode serve ended before it listened (${signal ?? `exit ${code}`})${lastWords(output.text())}`),
    )
  })
}

/**
 * Waits for the project's instance (its config, its plugins), which starts on the first request
 * that names it: a config opencode rejects shows here, once, instead of as an error object in every
 * answer. Throws `unavailable`'s error for a rejection, the fetch's own error otherwise.
 */
async function instanceStarted(
  url: string,
  authorization: string,
  directory: string,
  timeoutMs: number,
  unavailable: (message: string) => ToolTesterError,
): Promise<void> {
  const answer = await fetch(`${url}/config?directory=${encodeURIComponent(directory)}`, {
    headers: { authorization },
    signal: AbortSignal.timeout(timeoutMs),
  })
  if (!answer.ok) throw unavailable(`opencode rejects the project: ${serverError(await answer.text())}`)
}

/**
 * A promise that rejects with `signal`'s reason once it aborts, after `onAbort` ran (never, without
 * a signal); dispose() stops listening.
 */
function whenAborted(
  signal: AbortSignal | undefined,
  onAbort: () => void,
): { promise: Promise<never>; dispose(): void } {
  if (signal === undefined) return { promise: new Promise<never>(() => {}), dispose: () => {} }
  let listener = () => {}
  const promise = new Promise<never>((_, reject) => {
    listener = () => {
      onAbort()
      reject(signal.reason)
    }
    if (signal.aborted) listener()
    else signal.addEventListener("abort", listener, { once: true })
  })
  // Raced, but a rejection after the race settled must not count as unhandled.
  promise.catch(() => {})
  return { promise, dispose: () => signal.removeEventListener("abort", listener) }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

function clientUnavailable(message: string): ToolTesterError {
  return new ToolTesterError(
    "CLIENT_UNAVAILABLE",
    `the opencode server behind input.client did not start: ${message}`,
    { data: { reason: message } },
  )
}

/** The server's own message, for a start that failed: its first error line, else its last lines. */
function lastWords(output: string): string {
  const lines = output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("Warning: OPENCODE_SERVER_PASSWORD"))
  const error = lines.find((line) => /\berror\b/i.test(line))
  const words = error ?? lines.slice(-3).join(" | ")
  return words === "" ? "" : `: ${words.slice(0, 500)}`
}
