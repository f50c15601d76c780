import { pathToFileURL } from "node:url"
import { importEvents } from "./import-module.ts"
import { messageOfThrown, ToolTesterError } from "../errors.ts"
import { isOpencode2Definition, OPENCODE2_ADVICE } from "./opencode2.ts"
import type { ProjectClient } from "../client/project-client.ts"

/** The hooks tool-tester applies: `tool` adds tools, the three others change definitions and calls. */
export type PluginHooks = {
  tool?: Record<string, unknown>
  "tool.definition"?: (input: { toolID: string }, output: Record<string, unknown>) => Promise<void>
  "tool.execute.before"?: (
    input: { tool: string; sessionID: string; callID: string },
    output: { args: unknown },
  ) => Promise<void>
  "tool.execute.after"?: (
    input: { tool: string; sessionID: string; callID: string; args: unknown },
    output: Record<string, unknown>,
  ) => Promise<void>
  [hook: string]: unknown
}

export type InitializedPlugin = { exportName: string; hooks: PluginHooks }

/**
 * Calls the plugin functions of one module as opencode 1.18.34 does
 * (docs/opencode-contract.md#plugin-modules): a default export with `id`/`server`/`tui` is a v1
 * module (`id` required from a path); otherwise every export must be a function or an object with a
 * `server` function, visited in namespace order, each called once. A function that throws drops
 * itself and the exports after it; earlier ones keep their hooks.
 */
export async function initializePluginModule(options: {
  file: string
  namespace: Record<string, unknown>
  fromPath: boolean
  input: Record<string, unknown>
  client: ProjectClient
  pluginOptions: Record<string, unknown> | undefined
}): Promise<{ plugins: InitializedPlugin[]; errors: ToolTesterError[] }> {
  const { file, namespace } = options
  const failure = (called: { error: string; cause: unknown; code?: "PLUGIN_INIT_HANGS" }) =>
    new ToolTesterError(called.code ?? "PLUGIN_LOAD_FAILED", `${file}: ${called.error}`, {
      data: { file },
      cause: called.cause,
    })
  const fallback = namespace["default"]
  if (isOpencode2Definition(fallback)) {
    const message = `${file}: its default export comes from Plugin.define({ id, setup }), opencode 2's plugin API; ${OPENCODE2_ADVICE}`
    return { plugins: [], errors: [new ToolTesterError("OPENCODE_2", message, { data: { file } })] }
  }
  if (isV1Module(fallback)) {
    if (options.fromPath && typeof fallback.id !== "string") {
      return {
        plugins: [],
        errors: [
          failure({
            error: `opencode rejects it: "Path plugin ${pathToFileURL(file).href} must export id"; add an id`,
            cause: undefined,
          }),
        ],
      }
    }
    if (typeof fallback.server !== "function") return { plugins: [], errors: [] }
    const called = await callPlugin(file, "default", fallback.server, options)
    if ("error" in called) return { plugins: [], errors: [failure(called)] }
    return { plugins: [called.plugin], errors: [] }
  }
  const functions: Array<{ exportName: string; plugin: Function }> = []
  const seen = new Set<unknown>()
  for (const [exportName, value] of Object.entries(namespace)) {
    const plugin = typeof value === "function" ? value : serverOf(value)
    if (!plugin) {
      return {
        plugins: [],
        errors: [
          failure({
            error: `opencode rejects the whole module: "Plugin export is not a function" (export ${exportName}); export only plugin functions from a plugin entry`,
            cause: undefined,
          }),
        ],
      }
    }
    if (seen.has(plugin)) continue
    seen.add(plugin)
    functions.push({ exportName, plugin })
  }
  const plugins: InitializedPlugin[] = []
  for (const { exportName, plugin } of functions) {
    const called = await callPlugin(file, exportName, plugin, options)
    if ("error" in called) return { plugins, errors: [failure(called)] }
    plugins.push(called.plugin)
  }
  return { plugins, errors: [] }
}

// --- internal ---

type V1Module = { id?: unknown; server?: unknown; tui?: unknown }

function isV1Module(value: unknown): value is V1Module {
  return typeof value === "object" && value !== null && ("id" in value || "server" in value || "tui" in value)
}

function serverOf(value: unknown): Function | undefined {
  if (typeof value !== "object" || value === null) return undefined
  const server = (value as { server?: unknown }).server
  return typeof server === "function" ? server : undefined
}

async function callPlugin(
  file: string,
  exportName: string,
  plugin: Function,
  options: {
    input: Record<string, unknown>
    client: ProjectClient
    pluginOptions: Record<string, unknown> | undefined
  },
): Promise<{ plugin: InitializedPlugin } | { error: string; cause: unknown; code?: "PLUGIN_INIT_HANGS" }> {
  importEvents.onInit?.(file, exportName)
  const called = await options.client.watchInit(async () => plugin(options.input, options.pluginOptions))
  const hungOn = options.client.hungOn
  if (hungOn !== undefined) {
    return {
      code: "PLUGIN_INIT_HANGS",
      error: `plugin function ${exportName} awaits ${hungOn} during init: opencode 1.18.34 never answers that call before every plugin has initialised, so the whole run would hang there: make the call inside a tool's execute or a hook, or do not await it during init`,
      cause: "error" in called ? called.error : undefined,
    }
  }
  if ("error" in called) {
    // What it threw may be a Proxy whose traps throw: read safely.
    const message = messageOfThrown(called.error)
    return {
      error: `plugin function ${exportName} threw during init: ${message}; opencode drops it and the exports after it`,
      cause: called.error,
    }
  }
  const hooks = called.value
  if (typeof hooks !== "object" || hooks === null) {
    return {
      error: `plugin function ${exportName} returned ${hooks === null ? "null" : typeof hooks}, not a hooks object; opencode crashes the whole run on this ("Unexpected server error"): return {} at least, and do not export helper functions from a plugin entry`,
      cause: undefined,
    }
  }
  return { plugin: { exportName, hooks: hooks as PluginHooks } }
}
