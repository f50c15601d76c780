// The shape of the SDK client opencode 1.18.34 passes to a plugin as `input.client`
// (`@opencode-ai/sdk` `createOpencodeClient`, recorded in the plugin-client golden,
// docs/opencode-contract.md#plugin-input): `_client` (the HTTP client) first, then one class
// instance per namespace whose own key is `_client` (plus nested namespaces) and whose methods sit
// on its prototype. tool-tester builds every client it gives a plugin (the real one, the stub, the
// unavailable one) in this shape, so a plugin can list, destructure and keep it as in opencode.

/** The SDK client's namespaces and their methods. */
export const CLIENT_NAMESPACES: Record<string, { methods: string[]; nested?: Record<string, string[]> }> = {
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

/** What a client method does when called: `path` is e.g. `app.log` or `_client.get`. */
export type ClientMethodImplementation = (path: string, args: unknown[]) => unknown

/** A client in the SDK's shape whose every method is `implement(path, args)`. */
export function clientInShape(implement: ClientMethodImplementation): Record<string, unknown> {
  const http: Record<string, unknown> = {}
  for (const method of HTTP_CLIENT_METHODS) {
    http[method] = (...args: unknown[]) => implement(`_client.${method}`, args)
    if (method === "head") http["interceptors"] = { error: {}, request: {}, response: {} }
  }
  const client: Record<string, unknown> = { _client: http }
  for (const [name, { methods, nested }] of Object.entries(CLIENT_NAMESPACES)) {
    const namespace = namespaceObject(name, methods, http, implement)
    for (const [inner, innerMethods] of Object.entries(nested ?? {})) {
      namespace[inner] = namespaceObject(`${name}.${inner}`, innerMethods, http, implement)
    }
    client[name] = namespace
  }
  return client
}

// --- internal ---

function namespaceObject(
  path: string,
  methods: string[],
  http: Record<string, unknown>,
  implement: ClientMethodImplementation,
): Record<string, unknown> {
  const prototype: Record<string, unknown> = {}
  const className = capitalize(path.split(".").at(-1) ?? path)
  Object.defineProperty(prototype, "constructor", {
    value: Object.defineProperty(() => {}, "name", { value: className }),
    enumerable: false,
  })
  for (const method of methods) {
    Object.defineProperty(prototype, method, {
      value: (...args: unknown[]) => implement(`${path}.${method}`, args),
      enumerable: false,
      writable: true,
      configurable: true,
    })
  }
  const namespace = Object.create(prototype) as Record<string, unknown>
  namespace["_client"] = http
  return namespace
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
