import { ToolTesterError } from "../errors.ts"

/**
 * The first argument of a plugin function. `directory`, `worktree`, `project` and `serverUrl` are
 * what opencode passes. `client` has the shape of the SDK client opencode 1.18.34 passes (its keys,
 * namespaces and methods, docs/opencode-contract.md#plugin-input), so a plugin can list,
 * destructure and keep it; every call on it rejects, as there is no opencode server to answer. `$`
 * (Bun's shell) does not exist outside opencode: using it throws an error that says so.
 */
export function createPluginInput(options: { directory: string; worktree: string }): Record<string, unknown> {
  const now = Date.now()
  const watch: ClientWatch = { initializing: false, awaited: undefined }
  const input = {
    client: createClient(watch),
    project: {
      id: "tool-tester",
      worktree: options.worktree,
      vcs: options.worktree === "/" ? undefined : "git",
      sandboxes: [],
      time: { created: now, updated: now },
    },
    worktree: options.worktree,
    directory: options.directory,
    experimental_workspace: { register() {} },
    serverUrl: new URL("http://localhost:4096/"),
    $: unavailable("input.$ (Bun's shell)"),
  }
  watches.set(input, watch)
  return input
}

/**
 * Runs a plugin's init with `input`, and names the client call the init awaited, if any: in
 * opencode 1.18.34 a client call awaited during init never resolves and the whole run hangs
 * (docs/opencode-contract.md#plugin-input). Calls made without awaiting them
 * (`client.app.log(...).catch(...)`) are not.
 */
export async function watchPluginInit<T>(
  input: Record<string, unknown>,
  init: () => Promise<T>,
): Promise<
  { value: T; awaitedClientCall: string | undefined } | { error: unknown; awaitedClientCall: string | undefined }
> {
  const watch = watches.get(input)
  if (watch) Object.assign(watch, { initializing: true, awaited: undefined })
  try {
    return { value: await init(), awaitedClientCall: watch?.awaited }
  } catch (error) {
    return { error, awaitedClientCall: watch?.awaited }
  } finally {
    if (watch) watch.initializing = false
  }
}

/** Whether `error` is the rejection of an `input.client` call (tool-tester has no opencode server). */
export function isClientCallError(error: unknown): boolean {
  return ToolTesterError.isInstance(error) && String(error.data?.["unavailable"]).startsWith("input.client")
}

// --- internal ---

type ClientWatch = { initializing: boolean; awaited: string | undefined }

const watches = new WeakMap<object, ClientWatch>()

/** The SDK client's namespaces and their methods (`@opencode-ai/sdk` `createOpencodeClient`, 1.18.x). */
const CLIENT_NAMESPACES: Record<string, { methods: string[]; nested?: Record<string, string[]> }> = {
  global: { methods: ["event"] },
  project: { methods: ["list", "current"] },
  pty: { methods: ["list", "create", "remove", "get", "update", "connect"] },
  config: { methods: ["get", "update", "providers"] },
  tool: { methods: ["ids", "list"] },
  instance: { methods: ["dispose"] },
  path: { methods: ["get"] },
  vcs: { methods: ["get"] },
  session: {
    methods: [
      ...["list", "create", "status", "delete", "get", "update", "children", "todo", "init", "fork", "abort"],
      ...["unshare", "share", "diff", "summarize", "messages", "prompt", "message", "promptAsync", "command"],
      ...["shell", "revert", "unrevert"],
    ],
  },
  command: { methods: ["list"] },
  provider: { methods: ["list", "auth"], nested: { oauth: ["authorize", "callback"] } },
  find: { methods: ["text", "files", "symbols"] },
  file: { methods: ["list", "read", "status"] },
  app: { methods: ["log", "agents"] },
  mcp: {
    methods: ["status", "add", "connect", "disconnect"],
    nested: { auth: ["remove", "start", "callback", "authenticate", "set"] },
  },
  lsp: { methods: ["status"] },
  formatter: { methods: ["status"] },
  tui: {
    methods: [
      ...["appendPrompt", "openHelp", "openSessions", "openThemes", "openModels", "submitPrompt", "clearPrompt"],
      ...["executeCommand", "showToast", "publish"],
    ],
    nested: { control: ["next", "response"] },
  },
  auth: { methods: ["remove", "start", "callback", "authenticate", "set"] },
  event: { methods: ["subscribe"] },
}

/** The HTTP client under the SDK (`client._client`): its own keys are functions, and `interceptors`. */
const HTTP_CLIENT_METHODS = [
  ...["buildUrl", "connect", "delete", "get", "getConfig", "head"],
  ...["options", "patch", "post", "put", "request", "setConfig", "trace"],
]

/**
 * Like the SDK: `_client` first, then one class instance per namespace whose own key is `_client`
 * (plus nested namespaces) and whose methods sit on its prototype.
 */
function createClient(watch: ClientWatch): Record<string, unknown> {
  const http: Record<string, unknown> = {}
  for (const method of HTTP_CLIENT_METHODS) {
    http[method] = clientMethod(`_client.${method}`, watch)
    if (method === "head") http["interceptors"] = { error: {}, request: {}, response: {} }
  }
  const client: Record<string, unknown> = { _client: http }
  for (const [name, { methods, nested }] of Object.entries(CLIENT_NAMESPACES)) {
    const namespace = namespaceObject(name, methods, http, watch)
    for (const [inner, innerMethods] of Object.entries(nested ?? {})) {
      namespace[inner] = namespaceObject(`${name}.${inner}`, innerMethods, http, watch)
    }
    client[name] = namespace
  }
  return client
}

function namespaceObject(
  path: string,
  methods: string[],
  http: Record<string, unknown>,
  watch: ClientWatch,
): Record<string, unknown> {
  const prototype: Record<string, unknown> = {}
  const className = capitalize(path.split(".").at(-1) ?? path)
  Object.defineProperty(prototype, "constructor", {
    value: Object.defineProperty(() => {}, "name", { value: className }),
    enumerable: false,
  })
  for (const method of methods) {
    Object.defineProperty(prototype, method, {
      value: clientMethod(`${path}.${method}`, watch),
      enumerable: false,
      writable: true,
      configurable: true,
    })
  }
  const namespace = Object.create(prototype) as Record<string, unknown>
  namespace["_client"] = http
  return namespace
}

/**
 * A client method: its call returns a promise that rejects with an error saying there is no opencode
 * server. The rejection is marked handled (a call nobody awaits does not crash the process), and
 * awaiting the promise (or one chained from it) while a plugin initialises is recorded for
 * {@link watchPluginInit}.
 */
function clientMethod(path: string, watch: ClientWatch): (...args: unknown[]) => Promise<never> {
  return (..._args: unknown[]) => {
    const error = new ToolTesterError(
      "USAGE",
      `input.client.${path}() needs an opencode server, and tool-tester list/run has none: test code that calls the client with tool-tester e2e, where the real opencode provides the real client`,
      { data: { unavailable: `input.client.${path}` } },
    )
    const rejected = Promise.reject(error)
    const calledDuringInit = watch.initializing
    // `await` (and `Promise.all`, an async function's return) calls `then` of a promise whose
    // constructor is not Promise's own, with the engine's own resolving functions; a user's
    // `.then(callback)` passes a callback. Derived promises are watched the same way, and marked
    // handled: in opencode the call would have resolved.
    const observed = (promise: Promise<never>): Promise<never> => {
      const then = promise.then.bind(promise)
      then(undefined, () => {})
      const define = (key: string, value: unknown) => Object.defineProperty(promise, key, { value })
      define("constructor", undefined)
      define("then", (onFulfilled?: (value: never) => unknown, onRejected?: (reason: unknown) => unknown) => {
        if (calledDuringInit && watch.initializing && isEngineFunction(onFulfilled))
          watch.awaited ??= `input.client.${path}()`
        return observed(then(onFulfilled, onRejected) as Promise<never>)
      })
      define("catch", (onRejected?: (reason: unknown) => unknown) =>
        observed(then(undefined, onRejected) as Promise<never>),
      )
      define("finally", (onFinally?: () => void) =>
        observed(
          then(
            (value) => {
              onFinally?.()
              return value
            },
            (reason) => {
              onFinally?.()
              throw reason
            },
          ) as Promise<never>,
        ),
      )
      return promise
    }
    return observed(rejected)
  }
}

/** A function of the engine itself (`[native code]`), such as the resolving functions `await` passes. */
function isEngineFunction(value: unknown): boolean {
  return typeof value === "function" && /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(value))
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function unavailable(what: string): unknown {
  const fail = () => {
    throw new ToolTesterError(
      "USAGE",
      `${what} exists only inside opencode; tool-tester cannot provide it: test this part with tool-tester e2e`,
      { data: { unavailable: what } },
    )
  }
  const target = () => {}
  return new Proxy(target, {
    get: (_target, key) => (key === "then" || typeof key === "symbol" ? undefined : fail()),
    apply: fail,
  })
}
