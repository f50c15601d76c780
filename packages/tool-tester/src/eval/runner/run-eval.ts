// `runEvalTrials`: runs eval cases through the real opencode, with the user's own providers and
// keys, and returns what opencode recorded of each trial. One `opencode serve` per eval serves
// every model and case: the model is chosen per message (docs/opencode-contract.md#server), each
// trial is a session of its own, up to `concurrency` at once; after a tool run for real ended
// opencode's process, a new server runs the trials after it (eval-servers.ts, opencode-exit.ts:
// OPENCODE_EXITED). Everything started (the server and
// its children, the runner's endpoint, the throw-away folders) is gone when it settles, whether it
// resolves, throws or is aborted.
//
// Side effects are safe by default:
// - the project's tool files (and the global config folder's, and OPENCODE_CONFIG_DIR's) are
//   wrapped (eval-world.ts): a call is answered with the case's `results[tool]`, else a stand-in
//   text, and runs for real only when the case's `execute` says so;
// - built-ins that write or run commands are denied in the highest config layer
//   (`OPENCODE_CONFIG_CONTENT`): `bash`, `edit` (write, apply_patch), `external_directory`,
//   `doom_loop`, and `question` (a headless server would wait for an answer forever). "deny",
//   never "ask": nobody is there to answer;
// - tools that are neither built-ins nor wrapped (a plugin's `tool` hook, an MCP server's tools,
//   `~/.opencode/tools`) cannot be wrapped from outside without running their plugin a second
//   time, so the guard plugin (module-sources.ts) refuses their calls in `tool.execute.before`
//   with a clear "not run by tool-tester eval" error unless the case's `execute` names them (or is
//   `true`). So for an id a plugin or `~/.opencode` defines even when a wrapper or a built-in has
//   it too: opencode keeps the last definition of an id, which may be theirs. The model still made the call, so it is graded as made; its part is an `error`. The
//   guard also refuses the write/run built-ins should a lower config layer's rule order let one
//   through, and counts every call for the `maxCalls` loop bound.

import { definedFields } from "../../_defined-fields.ts"
import os from "node:os"
import { mergeConfig } from "../../config/opencode-config.ts"
import { isToolDisabled, rulesFromConfig, type PermissionConfig } from "../../config/permission.ts"
import { startOpencodeServer } from "../../opencode/opencode-server.ts"
import { resolveOpencode } from "../../opencode/opencode-binary.ts"
import { ENGINE_MARK, endMarked } from "../../runtime/process-tree.ts"
import { printedVersion } from "../../opencode/opencode-version-check.ts"
import { ToolTesterError } from "../../errors.ts"
import { BUILTIN_TOOL_IDS } from "../../pipeline/builtins.ts"
import { providerSchema } from "../../schema/provider-schema.ts"
import type { ProjectTools } from "../project-tools.ts"
import type { ToolVariant } from "../variants.ts"
import type { EvalCase, EvalTrial, ToolSnapshot } from "../../eval-cases/types.ts"
import { startCallEndpoint, type CallEndpoint } from "./call-endpoint.ts"
import { evalAgents } from "./eval-agents.ts"
import { createEvalWorld, type EvalWorld } from "./eval-world.ts"
import { endpointVariable, type GuardedCallAnswer, type WrappedCallAnswer } from "./module-sources.ts"
import { type ModelPlan, type ProviderInfo, resolveModels } from "./models.ts"
import { type EvalServers, startEvalServers } from "./eval-servers.ts"
import { exitProblem } from "./opencode-exit.ts"
import { trialOnServer, trialPlans } from "./planned-trial.ts"
import type { ServerApi } from "./server-api.ts"
import type { TrialSession } from "./trial.ts"
import { count } from "../../_count.ts"

export interface EvalRunnerOptions {
  directory: string
  cases: EvalCase[]
  /** provider/model ids; empty: the project's configured model (opencode's `model`). */
  models: string[]
  /** Default for cases without `runs` (else 1). */
  runs?: number
  agent?: string
  /** Trials in flight at once (default 4). */
  concurrency?: number
  /** Per trial (default 120 s). */
  timeoutMs?: number
  opencode?: string
  opencodeVersion?: string
  signal?: AbortSignal
  onProgress?: (phase: string) => void
  onTrial?: (trial: EvalTrial) => void
  /** The project's tools, when already read (they are read in an engine's process otherwise). */
  projectTools?: ProjectTools
  /**
   * More arms beside the normal run, each the same cases on every model, one after another in the
   * same server: a variant (other descriptions, through the guard's `tool.definition` hook) or a
   * tool removed from what the model is offered (`without`).
   */
  arms?: EvalArm[]
}

/** One arm beside the normal run. */
export interface EvalArm {
  name: string
  /** Tool id -> what this variant changes of its definition. */
  variant?: Record<string, ToolVariant>
  /** Tool ids the model is not offered. */
  without?: string[]
}

export interface EvalRunnerResult {
  trials: EvalTrial[]
  /** Every tool offered, per model (exact description and JSON Schema opencode sends that model). */
  tools: Record<string, ToolSnapshot[]>
  opencodeVersion: string
  /** Models that could not run at all (EVAL_MODEL_UNKNOWN with did-you-mean from the models opencode knows, ...). */
  problems: Array<{ code: string; model?: string; message: string }>
}

const defaultConcurrency = 4

/** Permissions of the highest config layer: what writes files or runs commands, and what waits for a person. */
const deniedPermissions = ["bash", "edit", "external_directory", "doom_loop", "question"] as const

export async function runEvalTrials(options: EvalRunnerOptions): Promise<EvalRunnerResult> {
  options.signal?.throwIfAborted()
  const progress = options.onProgress ?? (() => {})
  progress("finding opencode")
  const binary = await resolveOpencode({
    directory: options.directory,
    ...definedFields({ opencode: options.opencode, opencodeVersion: options.opencodeVersion, signal: options.signal }),
    onProgress: progress,
  })
  progress("copying the project and wrapping its tools")
  const arms = options.arms ?? []
  const variantIds = [...new Set(arms.flatMap((arm) => Object.keys(arm.variant ?? {})))]
  const world = await createEvalWorld({
    directory: options.directory,
    env: process.env,
    variantIds,
    ...definedFields({ tools: options.projectTools }),
  })
  // The arm whose trials run now: its variant answers the guard's definition hook.
  let running: EvalArm | undefined
  const sessions = new Map<string, TrialSession>()
  let endpoint: CallEndpoint | undefined
  let servers: EvalServers | undefined
  const onAbort = () => {
    for (const session of sessions.values()) session.stop({ code: "ABORTED", message: "The eval was aborted." })
  }
  options.signal?.addEventListener("abort", onAbort, { once: true })
  try {
    endpoint = await startCallEndpoint({
      onCall: (call) => answerCall(sessions.get(call.sessionID), call.tool),
      onBefore: (call) => guardCall(sessions.get(call.sessionID), call.tool, world),
      onDefinition: ({ tool }) => running?.variant?.[tool] ?? {},
    })
    options.signal?.throwIfAborted()
    progress("starting opencode")
    const environment = serverEnvironment(world, endpoint.url)
    servers = await startEvalServers({
      start: () =>
        startOpencodeServer({
          binary,
          directory: world.sandbox.project,
          env: environment,
          configContent: configContent(world),
          pure: false,
          ownHomes: false,
          ...definedFields({ signal: options.signal }),
          failure: (message) =>
            new ToolTesterError("OPENCODE_FAILED", `opencode serve did not start for the eval: ${message}`, {
              data: { reason: message },
            }),
        }),
      // What the ended server started (a language server, an MCP server) goes with it.
      beforeRestart: () => endMarked(world.sandbox.marker),
      directory: world.sandbox.project,
      sessions,
    })
    options.signal?.throwIfAborted()
    const { api } = await servers.current()
    progress("asking opencode for its models and tools")
    const { config, resolved } = await evalModels(api, options.models)
    const agents = await evalAgents(api, options)
    const problems = [...world.problems, ...resolved.problems, ...agents.problems]
    // Asked while the trials run: the answers are only needed in the result.
    const offeredOn = (on: ServerApi) =>
      Promise.all(resolved.models.map((model) => offeredTools(on, model, config, options.agent)))
    const offered = offeredOn(api)
    offered.catch(() => undefined)
    const version = serverVersion(api, binary)
    const plans = trialPlans({ ...options, cases: agents.cases }, resolved.models)
    const total = plans.length * (1 + arms.length)
    progress(`running ${count(total, "trial")}`)
    const trials: EvalTrial[] = []
    try {
      // One arm at a time: a definition hook cannot tell sessions apart, so one variant runs at once.
      for (const arm of [undefined, ...arms]) {
        running = arm
        const armTrials = await runPool(plans, options.concurrency ?? defaultConcurrency, async (plan) => {
          options.signal?.throwIfAborted()
          const trial = await trialOnServer(servers!, { ...options, sessions }, plan, arm)
          options.signal?.throwIfAborted()
          options.onTrial?.(trial)
          return trial
        })
        trials.push(...armTrials)
      }
    } finally {
      running = undefined
    }
    // Asked again of the server that runs now when the first ended before it answered.
    const snapshots = await offered.catch(async (error: unknown) => {
      if (servers?.ends.length === 0) throw error
      return offeredOn((await servers!.current()).api)
    })
    const tools: Record<string, ToolSnapshot[]> = {}
    for (const [index, snapshot] of snapshots.entries()) tools[resolved.models[index]!.id] = snapshot
    problems.push(...servers.ends.map(exitProblem))
    return { trials, tools, opencodeVersion: await version, problems }
  } finally {
    options.signal?.removeEventListener("abort", onAbort)
    servers?.stop()
    endMarked(world.sandbox.marker)
    await endpoint?.close()
    await world.sandbox.dispose()
  }
}

// --- internal ---

/** The models the trials run on (`--model`, else the config's), as opencode resolves them, and its config. */
async function evalModels(
  api: ServerApi,
  models: string[],
): Promise<{ config: Record<string, unknown>; resolved: ReturnType<typeof resolveModels> }> {
  const [config, usable] = await Promise.all([
    api.get<Record<string, unknown>>("/config"),
    api.get<{ providers: ProviderInfo[] }>("/config/providers"),
  ])
  const configured = typeof config.model === "string" ? config.model : undefined
  const requested = models.length > 0 ? models : configured === undefined ? [] : [configured]
  const usableIds = new Set(usable.providers.flatMap((p) => Object.keys(p.models).map((id) => `${p.id}/${id}`)))
  // opencode's whole catalogue only matters for a model it cannot use (no key, or no such model).
  const catalogue = requested.every((id) => usableIds.has(id))
    ? []
    : (await api.get<{ all: ProviderInfo[] }>("/provider")).all
  const resolved = resolveModels({ requested: models, configured, usable: usable.providers, catalogue })
  return { config, resolved }
}

/** The server's opencode version: its health answer, else the binary's `--version`. */
function serverVersion(api: ServerApi, binary: string): Promise<string> {
  return api
    .get<{ version?: unknown }>("/global/health")
    .then((health) => (typeof health?.version === "string" ? health.version : versionPrinted(binary)))
    .catch(() => versionPrinted(binary))
}

/** Runs `work` on every item, at most `limit` at once, results in the items' order. */
async function runPool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
  return results
}

function answerCall(session: TrialSession | undefined, tool: string): WrappedCallAnswer {
  const evalCase = session?.evalCase
  if (evalCase !== undefined && mayExecute(evalCase, tool)) {
    session?.ranForReal.add(tool)
    return { execute: true }
  }
  const stated = evalCase?.results?.[tool]
  if (stated !== undefined) return { output: stated }
  return {
    output: `[tool-tester eval] The call of ${tool} was recorded and not run (the eval case states no result for it).`,
  }
}

function guardCall(
  session: TrialSession | undefined,
  tool: string,
  world: Pick<EvalWorld, "wrappedIds" | "unwrappedIds">,
): GuardedCallAnswer {
  const wrapped = world.wrappedIds
  if (session?.countCall()) {
    return { deny: `Not run by tool-tester eval: the model made more than ${session.maxCalls} tool calls in one turn.` }
  }
  // Defined by a plugin or a folder the eval does not copy: that definition may be the one that
  // runs, whatever else has the id (a wrapper, a built-in), so only the case's `execute` lets it run.
  if (world.unwrappedIds.has(tool)) {
    if (session !== undefined && mayExecute(session.evalCase, tool)) return runsForReal(session, tool)
    return {
      deny: `Not run by tool-tester eval: ${tool} is a plugin's tool or a ~/.opencode tool (or has the id of one), so the call may reach it and the eval cannot answer it in its place; list it in the case's "execute" to run it.`,
    }
  }
  if (writingBuiltins.has(tool) && !wrapped.has(tool)) {
    return { deny: `Not run by tool-tester eval: the built-in ${tool} writes files or runs commands.` }
  }
  if (wrapped.has(tool) || BUILTIN_TOOL_IDS.includes(tool) || tool === "question") return { allow: true }
  if (session !== undefined && mayExecute(session.evalCase, tool)) return runsForReal(session, tool)
  return {
    deny: `Not run by tool-tester eval: ${tool} is not one of the project's tool files (a plugin's or an MCP server's tool), so the eval cannot answer it in its place; list it in the case's "execute" to run it.`,
  }
}

/** Lets a tool that is not wrapped run, recording that the trial runs it for real. */
function runsForReal(session: TrialSession, tool: string): GuardedCallAnswer {
  session.ranForReal.add(tool)
  return { allow: true }
}

const writingBuiltins = new Set(["bash", "edit", "write", "apply_patch", "patch", "multiedit"])

function mayExecute(evalCase: EvalCase, tool: string): boolean {
  return evalCase.execute === true || (Array.isArray(evalCase.execute) && evalCase.execute.includes(tool))
}

/** The server's environment: the user's, with the throw-away homes, the endpoint and the run's marker. */
function serverEnvironment(world: EvalWorld, endpointUrl: string): Record<string, string | undefined> {
  return {
    ...process.env,
    XDG_CONFIG_HOME: world.homes.config,
    XDG_DATA_HOME: world.homes.data,
    XDG_STATE_HOME: world.homes.state,
    XDG_CACHE_HOME: world.homes.cache,
    // opencode's own temp files (Bun's extracted libraries, its tmp folder) go with the world.
    TMPDIR: world.sandbox.tmp,
    TEMP: world.sandbox.tmp,
    TMP: world.sandbox.tmp,
    OPENCODE_CONFIG_DIR: world.homes.configDir,
    [endpointVariable]: endpointUrl,
    [ENGINE_MARK]: world.sandbox.marker,
  }
}

/** The highest config layer: the user's own `OPENCODE_CONFIG_CONTENT`, the denied permissions and the guard plugin on top. */
function configContent(world: EvalWorld): Record<string, unknown> {
  let user: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(process.env["OPENCODE_CONFIG_CONTENT"] ?? "{}")
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      user = parsed as Record<string, unknown>
  } catch {
    // opencode would reject it too; the eval goes on without it.
  }
  const permission: Record<string, "deny"> = Object.fromEntries(deniedPermissions.map((name) => [name, "deny"]))
  const userPlugins = Array.isArray(user.plugin) ? user.plugin : []
  return {
    ...mergeConfig(user, { permission, share: "disabled", autoupdate: false, snapshot: false }),
    plugin: [...userPlugins, world.guardPlugin],
  }
}

/**
 * The tools the server offers a model (`GET /experimental/tool`: `tool.definition` hooks applied,
 * not the provider's fixes), without those its permission rules leave out.
 */
async function offeredTools(
  api: ServerApi,
  model: ModelPlan,
  config: Record<string, unknown>,
  agent: string | undefined,
): Promise<ToolSnapshot[]> {
  const query = `provider=${encodeURIComponent(model.providerID)}&model=${encodeURIComponent(model.modelID)}`
  const listed = await api.get<Array<{ id: string; description: string; parameters: unknown }>>(
    `/experimental/tool?${query}`,
  )
  const agents = (config.agent ?? {}) as Record<string, { permission?: PermissionConfig }>
  const rules = [
    ...rulesFromConfig(config.permission as PermissionConfig | undefined, os.homedir()),
    ...rulesFromConfig(agents[agent ?? "build"]?.permission, os.homedir()),
  ]
  return listed
    .filter((tool) => tool.id !== "invalid" && !isToolDisabled(tool.id, rules))
    .map((tool) => ({ id: tool.id, description: tool.description, parameters: sentSchema(tool.parameters, model) }))
}

/** `opencode --version`, its temp files in `tmp` (the world's, removed with it). */
/** The schema as opencode sends it to the model: the route's, with the provider's fixes (docs/opencode-contract.md#provider-fixes). */
function sentSchema(parameters: unknown, model: ModelPlan): unknown {
  if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) return parameters
  const fixed = { npm: model.api.npm, providerID: model.providerID, modelID: model.api.id }
  return providerSchema(parameters as Record<string, unknown>, fixed)
}

async function versionPrinted(binary: string): Promise<string> {
  return (await printedVersion(binary, 60_000)) ?? "unknown"
}
