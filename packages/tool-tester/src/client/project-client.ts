// What a loaded project gives its plugins as `input.client` (docs/fidelity.md#inputclient), one of:
//   server       a real `@opencode-ai/sdk` client of a real `opencode serve` for the project,
//                started from the user's opencode binary when a plugin first calls the client
//                (a project whose plugins never call it pays nothing), shared by all its calls,
//                stopped by closeProject() and with the process that started it;
//   stub         the partial client a test passed (`loadTools({ client })`): its methods answer,
//                any other rejects naming the method;
//   unavailable  no opencode binary (node engine): every call rejects with CLIENT_UNAVAILABLE.
// During a plugin's init, awaiting a call that opencode 1.18.34 never answers there is reported
// (PLUGIN_INIT_HANGS) instead of hanging; the same call not awaited runs once init is over, as in
// opencode (docs/opencode-contract.md#plugin-input).
import { ToolTesterError } from "../errors.ts"
import { CallSessions, ORIGIN } from "./call-sessions.ts"
import { clientInShape } from "./client-shape.ts"
import { hangsDuringInit } from "./init-hangs.ts"
import { type RunningServer, startOpencodeServer } from "../opencode/opencode-server.ts"

export type ClientSource =
  | {
      kind: "server"
      binary: string
      env: Record<string, string | undefined>
      onLog?: ((line: string) => void) | undefined
      /** false: the server reads no user-level config (LoadToolsOptions.global). */
      global?: boolean
    }
  | { kind: "stub"; stub: Record<string, unknown> }
  /** In an engine's process: the stub lives with the library, on the Node side. */
  | { kind: "relay"; call: (path: string, args: unknown[]) => Promise<unknown> }
  | { kind: "unavailable"; reason: string }

export type ProjectClient = {
  /** The client in the SDK's shape, for `input.client`. */
  client: Record<string, unknown>
  /** The server's URL once it runs; before that, what `opencode run` passes. */
  readonly serverUrl: URL
  sessions: CallSessions
  /** Runs a plugin's init, and names the client call it awaited that opencode would never answer. */
  watchInit<T>(init: () => Promise<T>): Promise<{ value: T } | { error: unknown }>
  /** The call opencode would hang on, awaited during the last init, if any. */
  readonly hungOn: string | undefined
  /** The client calls started and not yet answered (`session.prompt`, ...). */
  pending(): string[]
  /**
   * Waits for the calls plugins started during init without awaiting them. In opencode they answer
   * while the model is asked (long before its first tool call), so a tool sees what they did.
   */
  initCallsSettled(): Promise<void>
  /** Whether the server was started (for tests and --verbose). */
  readonly started: boolean
  /** The server's log so far. */
  log(): string
  stop(): void
}

/** What opencode passes as `serverUrl` under `opencode run` (docs/opencode-contract.md#plugin-input). */
const DEFAULT_SERVER_URL = "http://localhost:4096/"

export function createProjectClient(options: { directory: string; source: ClientSource }): ProjectClient {
  const { directory, source } = options
  const sessions = new CallSessions()
  const server = source.kind === "server" ? lazyServer(directory, source, sessions) : undefined
  const init = new InitWatch()

  const forward = async (path: string, args: unknown[]): Promise<unknown> => {
    if (source.kind === "unavailable") {
      throw new ToolTesterError(
        "CLIENT_UNAVAILABLE",
        `input.client.${path}() needs an opencode server, and ${source.reason}: install opencode in the project (npm i -D opencode-ai) or on PATH, or test this part with tool-tester e2e`,
        { data: { method: path } },
      )
    }
    if (source.kind === "stub") return callStub(source.stub, path, args)
    if (source.kind === "relay") return source.call(path, args)
    if (server === undefined) throw new Error("no server for this client")
    const client = await server.client()
    const method = lookUp(client, path)
    if (typeof method !== "function") throw new Error(`the SDK client has no ${path}`)
    return method.apply(lookUp(client, parentOf(path)), args)
  }

  const waiting = new Map<number, string>()
  let nextCall = 1
  const tracked = (path: string, args: unknown[]): Promise<unknown> => {
    const id = nextCall++
    waiting.set(id, path)
    const call = forward(path, args)
    const settled = call.then(
      () => waiting.delete(id),
      () => waiting.delete(id),
    )
    if (init.running) init.keep(settled)
    return call
  }

  const implement = (path: string, args: unknown[]): Promise<unknown> => {
    if (!init.running || !hangsDuringInit(path)) return tracked(path, args)
    // opencode answers this call only once every plugin has initialised: run it then, unless the
    // init awaits it (which would never end), which is reported instead.
    const later = init.ended.then(() => tracked(path, args))
    init.keep(
      later.then(
        () => {},
        () => {},
      ),
    )
    const startedIn = init.count
    return watchedForAwait(later, {
      hangs: () => init.hangsOn(startedIn, path),
      // An await during init is judged a turn later: an init that starts and ends before then must
      // not let initCallsSettled() return before the awaiting function has resumed.
      keep: (settling) => {
        if (init.running) init.keep(settling)
      },
    })
  }

  return {
    client: clientInShape(implement),
    get serverUrl() {
      const running = server?.running
      return new URL(running ? `${running.url}/` : DEFAULT_SERVER_URL)
    },
    sessions,
    watchInit: (run) => init.watch(run),
    get hungOn() {
      return init.hungOn
    },
    pending: () => [...new Set(waiting.values())].map((path) => `input.client.${path}()`),
    initCallsSettled: () => init.callsSettled(),
    get started() {
      return server?.running !== undefined
    },
    log: () => server?.running?.log() ?? "",
    stop: () => server?.stop(),
  }
}

const clients = new WeakMap<object, ProjectClient>()

/** Ties a project to its client (loadTools), so calls and closeProject() find it. */
export function attachProjectClient(project: object, client: ProjectClient): void {
  clients.set(project, client)
}

/** The client of a project loaded in this process, if any. */
export function projectClientOf(project: object): ProjectClient | undefined {
  return clients.get(project)
}

/** Calls `path` (`app.log`) on a test's client stub; a method it lacks rejects naming it. */
export async function callStub(stub: Record<string, unknown>, path: string, args: unknown[]): Promise<unknown> {
  const method = lookUp(stub, path)
  if (typeof method !== "function") {
    throw new ToolTesterError(
      "CLIENT_METHOD_MISSING",
      `input.client.${path}() is not in the client stub this project was loaded with: add ${path} to the stub, or load the project without { client } to get a real opencode server`,
      { data: { method: path } },
    )
  }
  return method.apply(lookUp(stub, parentOf(path)), args)
}

/** The error an init gets when it awaits a call opencode never answers there. */
class InitHang extends Error {}

// --- internal ---

/** A project's `opencode serve`, started by the first call that needs it, and the SDK client of it. */
function lazyServer(
  directory: string,
  source: Extract<ClientSource, { kind: "server" }>,
  sessions: CallSessions,
): { client(): Promise<Record<string, unknown>>; readonly running: RunningServer | undefined; stop(): void } {
  let server: Promise<RunningServer> | undefined
  let running: RunningServer | undefined
  let sdk: Promise<Record<string, unknown>> | undefined
  // stop() while the server starts ends it then, and no call starts another.
  const closing = new AbortController()

  const ensureServer = (): Promise<RunningServer> => {
    server ??= startOpencodeServer({
      binary: source.binary,
      directory,
      env: source.env,
      onLog: source.onLog,
      global: source.global ?? true,
      signal: closing.signal,
    }).then((started) => {
      running = started
      return started
    })
    server.catch(() => {
      server = undefined
    })
    return server
  }

  const send = async (request: Request): Promise<Response> => {
    const started = await ensureServer()
    const url = request.url.startsWith(ORIGIN) ? started.url + request.url.slice(ORIGIN.length) : request.url
    const headers = new Headers(request.headers)
    headers.set("authorization", started.authorization)
    const init: RequestInit & { timeout?: boolean } = {
      method: request.method,
      headers,
      signal: request.signal,
      // Bun ends a fetch after 5 minutes unless told not to; the call's own timeout bounds it.
      timeout: false,
    }
    if (request.method !== "GET" && request.method !== "HEAD") init.body = await request.arrayBuffer()
    return fetch(url, init)
  }

  return {
    client() {
      sdk ??= (async () => {
        const { createOpencodeClient } = await import("@opencode-ai/sdk/client")
        return createOpencodeClient({
          baseUrl: ORIGIN,
          directory,
          fetch: (request: Request) => sessions.fetch(request, send),
        }) as unknown as Record<string, unknown>
      })()
      return sdk
    },
    get running() {
      return running
    },
    stop() {
      running?.stop()
      closing.abort(
        new ToolTesterError(
          "CLIENT_UNAVAILABLE",
          "the project was closed (closeProject, or the run ended): its opencode server was stopped; load the project again to call input.client",
        ),
      )
      // Started, but not yet seen as running (its start resolved in this same turn).
      if (!running)
        server?.then(
          (started) => started.stop(),
          () => {},
        )
    },
  }
}

/**
 * The plugins' inits as the client sees them: whether one runs, when it ends, the call it awaited
 * that opencode never answers there, and the calls started during it that are still out.
 */
class InitWatch {
  running = false
  /** Counts the inits, so a call's await is judged against the init that made the call. */
  count = 0
  hungOn: string | undefined
  /** Resolves when the init running now ends. */
  ended: Promise<void> = Promise.resolve()
  #endInit = () => {}
  readonly #startedInInit = new Set<Promise<unknown>>()

  async watch<T>(init: () => Promise<T>): Promise<{ value: T } | { error: unknown }> {
    this.running = true
    this.count++
    this.hungOn = undefined
    this.ended = new Promise<void>((resolve) => {
      this.#endInit = resolve
    })
    try {
      return { value: await init() }
    } catch (error) {
      return { error }
    } finally {
      this.running = false
      this.#endInit()
    }
  }

  /** Keeps a call started during init (its settling, which never rejects) until it settles. */
  keep(settled: Promise<unknown>): void {
    this.#startedInInit.add(settled)
    void settled.then(() => this.#startedInInit.delete(settled))
  }

  /**
   * Whether an await of `path`, called during init number `startedIn`, hangs: the init that made
   * the call is still running once everything it could do without the answer has run, so it awaits
   * the call (an async function it started and left running would have let it end).
   */
  hangsOn(startedIn: number, path: string): boolean {
    const hangs = this.running && this.count === startedIn
    if (hangs) this.hungOn ??= `input.client.${path}()`
    return hangs
  }

  async callsSettled(): Promise<void> {
    if (this.#startedInInit.size === 0) return
    while (this.#startedInInit.size > 0) await Promise.all([...this.#startedInInit])
    // The plugins' own callbacks on those calls run next: let them.
    await new Promise((resolve) => setImmediate(resolve))
  }
}

function lookUp(root: unknown, path: string): unknown {
  let value: unknown = root
  for (const key of path.split(".").filter(Boolean)) {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

function parentOf(path: string): string {
  return path.split(".").slice(0, -1).join(".")
}

/**
 * `promise`, watched: `await` (and `Promise.all`, an async function's return) calls `then` with
 * the engine's own resolving functions; a user's `.then(callback)` passes a callback. When
 * `judge.hangs()` says the await happens during init, the awaiting side gets an InitHang
 * rejection instead of waiting forever; otherwise it resumes with the answer, and `judge.keep`
 * is given that resumption (settling, never rejecting). Derived promises are watched the same way.
 */
function watchedForAwait<T>(promise: Promise<T>, judge: AwaitJudge): Promise<T> {
  const then = promise.then.bind(promise)
  // A call nobody awaits must not crash the process when it fails.
  then(undefined, () => {})
  const define = (key: string, value: unknown) => Object.defineProperty(promise, key, { value })
  define("constructor", undefined)
  define("then", (onFulfilled?: (value: T) => unknown, onRejected?: (reason: unknown) => unknown) => {
    if (isEngineFunction(onFulfilled)) {
      // An `await`: in the plugin function itself, or in an async function it started without
      // awaiting (`(async () => { await client.provider.list() })()`, opencode-supermemory), which
      // opencode answers once init is over. Which one shows only after the init has run as far as
      // it can: judge then (after the pending promise jobs, setImmediate).
      const verdict = new Promise<boolean>((resolve) => setImmediate(() => resolve(judge.hangs())))
      const resumed = verdict.then((hangs) =>
        hangs
          ? Promise.reject(new InitHang("awaited during init")).then(onFulfilled, onRejected)
          : then(onFulfilled, onRejected),
      )
      judge.keep(
        resumed.then(
          () => {},
          () => {},
        ),
      )
      return resumed
    }
    return watchedForAwait(then(onFulfilled, onRejected) as Promise<T>, judge)
  })
  define("catch", (onRejected?: (reason: unknown) => unknown) =>
    watchedForAwait(then(undefined, onRejected) as Promise<T>, judge),
  )
  define("finally", (onFinally?: () => void) =>
    watchedForAwait(
      then(
        (value) => {
          onFinally?.()
          return value
        },
        (reason) => {
          onFinally?.()
          throw reason
        },
      ) as Promise<T>,
      judge,
    ),
  )
  return promise
}

/** How an await of a client call made during init is judged, and where its resumption is kept. */
interface AwaitJudge {
  hangs(): boolean
  keep(settling: Promise<unknown>): void
}

/** A function of the engine itself (`[native code]`), such as the resolving functions `await` passes. */
function isEngineFunction(value: unknown): boolean {
  return typeof value === "function" && /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(value))
}
