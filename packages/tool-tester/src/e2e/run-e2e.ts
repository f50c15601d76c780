// `runE2E`: run a project's tools inside the real opencode binary, offline, with a scripted mock
// model, and report what opencode sent and returned. Everything it starts (mock server, opencode and
// its children, temp folders) is gone when it settles, whether it resolves, throws or is aborted.

import path, { isAbsolute, resolve } from "node:path"
import { definedFields } from "../_defined-fields.ts"
import { checkTimeoutOption } from "../_timeout-bound.ts"
import { described } from "../_described.ts"
import { isRecord } from "../_is-record.ts"
import { refuseUnknownOptions } from "../_known-options.ts"
import { configProblem, type OpencodeConfig } from "../config/opencode-config.ts"
import { ToolTesterError } from "../errors.ts"
import { resolveOpencode } from "../opencode/opencode-binary.ts"
import { runOpencodeProcess } from "../opencode/opencode-process.ts"
import { opencodeIdentity } from "../opencode/opencode-identity.ts"
import { opencodePackageVersion, opencodeVersionOf } from "../opencode/opencode-version-check.ts"
import { pluginPackageFor } from "../opencode/plugin-package.ts"
import { createSandbox, projectConfigDirectories } from "../opencode/sandbox.ts"
import { endMarked } from "../runtime/process-tree.ts"
import { prepareConfiguredPlugins } from "./configured-plugins.ts"
import {
  collectCalls,
  type E2EError,
  type E2EResult,
  eventErrors,
  outputFlood,
  parseEvents,
  readToolOutputFiles,
  stderrLines,
  unfinishedCalls,
} from "./e2e-result.ts"
import { lastUncaughtError } from "./escaped-error.ts"
import { type MockModel, type ServedCall, startMockModel } from "./mock-model.ts"
import { cohereScriptProblem } from "./model-apis/cohere-chat.ts"
import { googleScriptProblem } from "./model-apis/google-generate-content.ts"
import { defaultModel, defaultProviderPackage, mockProviderId, titleModelOf } from "./opencode-config.ts"
import { configureSandbox } from "./sandbox-setup.ts"
import { defaultPrompt, parseScript, type Script } from "./script.ts"

export interface E2EOptions {
  /** The project folder (holding `.opencode/tools/*.ts`, `opencode.json`, ...). */
  directory: string
  /** Plugin specs added to the config's `plugin` list; relative paths are taken from `directory`. */
  plugins?: string[]
  /** The model's turns (validated; SCRIPT_INVALID when malformed). */
  script: Script
  /** The opencode binary to run (else found, see `findOpencode`). */
  opencode?: string
  /** Install and run this opencode version (cached). */
  opencodeVersion?: string
  /** The model id (default `mock-model`); ids with `gemini` or `gpt-` change what opencode sends. */
  model?: string
  /**
   * The provider's npm package (default `@ai-sdk/openai-compatible`): one that speaks the OpenAI
   * chat-completions or responses API, Anthropic's messages API or Google's generateContent
   * (docs/cli.md#e2e lists them); another is USAGE once opencode sends it a request the mock model
   * cannot answer. With Google's, a script's call `id` is USAGE before anything runs.
   */
  provider?: string
  /** opencode config deep-merged over everything else (e.g. `{"permission": {"task": "deny"}}`). */
  config?: Record<string, unknown>
  /** The agent `opencode run --agent` prompts (default: opencode's default agent, docs/opencode-contract.md#agent). */
  agent?: string
  /** Bound of the whole opencode run (default 90 s). */
  timeoutMs?: number
  /**
   * Bound of each tool call (default: none, only `timeoutMs`), from when the model asks for it to
   * when opencode sends its result back, so opencode's start-up does not count. A call past it stops
   * opencode with `TOOL_TIMEOUT`.
   */
  callTimeoutMs?: number
  /**
   * Run in a copy of `directory` (default true; `node_modules` folders are linked, `.git` copied),
   * with what is read above it (opencode/copy-above.ts), whose top is a git worktree root of its own.
   * false runs in place and undoes the plugin pre-install (opencode's own `.opencode/.gitignore` stays).
   */
  copyProject?: boolean
  signal?: AbortSignal
  /** Told each start-up phase as it begins ("installing opencode 1.18.34 with npm", "running opencode"), for a progress line. */
  onProgress?: (phase: string) => void
  /** Port of the mock model (default 0: any free port). */
  port?: number
  /**
   * Parent folder of the throw-away folders (default: the OS temp folder). Made when missing, and
   * then removed when the run ends, once empty; a folder that existed stays.
   */
  tempDirectory?: string
}

const defaultTimeoutMs = 90_000

/** Every option runE2E takes: `timeout` for `timeoutMs` would give the run the default bound. */
const E2E_OPTIONS: Record<keyof E2EOptions, true> = {
  directory: true,
  plugins: true,
  script: true,
  opencode: true,
  opencodeVersion: true,
  model: true,
  provider: true,
  config: true,
  agent: true,
  timeoutMs: true,
  callTimeoutMs: true,
  copyProject: true,
  signal: true,
  onProgress: true,
  port: true,
  tempDirectory: true,
}

export async function runE2E(options: E2EOptions): Promise<E2EResult> {
  if (!isRecord(options))
    throw new ToolTesterError(
      "USAGE",
      `runE2E's options must be an object, such as { directory, script }, not ${described(options)}`,
      {
        data: { option: "options" },
      },
    )
  refuseUnknownOptions("runE2E", options, E2E_OPTIONS)
  checkOptionTypes(options)
  checkTimeoutOption("timeoutMs", options.timeoutMs)
  checkTimeoutOption("callTimeoutMs", options.callTimeoutMs)
  return runE2EWithin(options, options.timeoutMs ?? defaultTimeoutMs)
}

/**
 * runE2E with the whole run's bound given apart: a function is asked again each second while
 * opencode runs, so a bound that grew keeps it going (`tool-tester verify`'s, which follows the
 * machine's load: src/verify/run-bounds.ts). Not public: the e2e entry exports runE2E.
 */
export async function runE2EWithin(options: E2EOptions, bound: number | (() => number)): Promise<E2EResult> {
  const startedAt = performance.now()
  const script = parseScript(options.script)
  const refused = options.config === undefined ? undefined : configProblem(options.config as OpencodeConfig)
  if (refused) {
    throw new ToolTesterError("CONFIG_INVALID", `the config given: ${refused.message}`, { data: refused.data })
  }
  checkScriptForProvider(script, options.provider ?? defaultProviderPackage)
  options.signal?.throwIfAborted()
  const directory = resolve(options.directory)
  const progress = options.onProgress ?? (() => {})
  progress("finding opencode")
  const binary = await resolveOpencode({
    directory,
    ...definedFields({ opencode: options.opencode, opencodeVersion: options.opencodeVersion, signal: options.signal }),
    onProgress: progress,
  })
  progress("copying the project into a throw-away folder")
  const sandbox = await createSandbox({
    directory,
    copyProject: options.copyProject ?? true,
    ...definedFields({ tempDirectory: options.tempDirectory }),
  })
  let mock: MockModel | undefined
  const callBound = callTimer(options.callTimeoutMs)
  try {
    progress("starting the mock model")
    const model = options.model ?? defaultModel
    mock = await startMockModel({
      script,
      ...definedFields({ port: options.port }),
      // A `small_model` of the caller's config replaces e2e's: the title request is then told by its
      // lack of tools.
      ...(options.config?.["small_model"] === undefined ? { titleModel: titleModelOf(model) } : {}),
      onMainRequest: callBound.onMainRequest,
    })
    progress("preparing plugins")
    const { layers, env } = await configureSandbox(
      sandbox,
      {
        baseURL: mock.baseURL,
        model,
        providerPackage: options.provider ?? defaultProviderPackage,
        plugins: (options.plugins ?? []).map((spec) => absolutePluginSpec(spec, directory)),
        config: options.config,
      },
      {
        pluginPackage: await pluginPackageFor(directory, sandbox.tmp),
        configDirectories: [sandbox.globalConfigDirectory, ...projectConfigDirectories(sandbox.project)],
      },
    )
    const pluginErrors = await prepareConfiguredPlugins({
      sandbox,
      directory,
      contentPlugins: Array.isArray(layers.content.plugin) ? layers.content.plugin : [],
    })
    const modelId = `${mockProviderId}/${model}`
    progress("running opencode")
    const run = await runOpencodeProcess({
      binary,
      args: runArguments(modelId, options.agent, script.prompt ?? defaultPrompt),
      cwd: sandbox.project,
      env,
      marker: sandbox.marker,
      timeoutMs: bound,
      signal: options.signal === undefined ? callBound.signal : AbortSignal.any([options.signal, callBound.signal]),
    })
    // A call past its own bound stops opencode as the whole run's timeout does.
    const callTimedOut = callBound.signal.aborted && options.signal?.aborted !== true
    if (run.aborted && !callTimedOut)
      throw options.signal?.reason ?? new DOMException("The e2e run was aborted.", "AbortError")
    const timedOut = run.timedOut || callTimedOut
    const events = parseEvents(run.stdout)
    const stderrErrors = stderrLines(run.stderr)
    const calls = collectCalls(mock.servedCalls, mock.requests, events)
    const result: E2EResult = {
      opencode: binary,
      opencodeVersion: (await opencodeVersionOf(binary)) ?? null,
      model: modelId,
      tools: firstMainTools(mock),
      requests: mock.requests,
      calls,
      events,
      toolOutputFiles: await readToolOutputFiles(sandbox.dataHome),
      errors: [
        ...pluginErrors,
        ...eventErrors(events),
        ...outputFlood(calls, run.stdoutLeftOut),
        ...stderrErrors,
        ...(timedOut ? [] : unfinishedCalls(calls, run.exitCode, [...eventErrors(events), ...stderrErrors])),
      ],
      exitCode: run.exitCode,
      durationMs: Math.round(performance.now() - startedAt),
      sandbox: { project: sandbox.project, home: sandbox.home, data: sandbox.dataHome },
    }
    if (mock.unrouted.length > 0 && (run.exitCode !== 0 || timedOut))
      throw unspokenProvider(mock, options.provider ?? defaultProviderPackage, result)
    if (callTimedOut) throw timeoutError(mock, { ms: options.callTimeoutMs!, flag: "--call-timeout" }, result)
    if (run.timedOut) throw timeoutError(mock, { ms: run.boundMs, flag: "--timeout" }, result)
    // Ended without one model request: the script never ran, even at exit 0 (a program that is not
    // opencode, `/bin/true`, ends so); a report of no calls would read as a pass.
    if (mock.requests.length === 0 && (run.exitCode === 0 || events.length === 0)) {
      await checkIdentity(result, binary)
      throw endedBeforeTheModel(result, stderrErrors, sandbox, directory)
    }
    return result
  } finally {
    callBound.clear()
    await mock?.close()
    endMarked(sandbox.marker)
    await sandbox.dispose()
  }
}

// --- internal ---

/**
 * Refuses options runE2E cannot run with (USAGE naming the option), before opencode is looked for,
 * as loadTools() does: a missing directory failed as Node's "paths[0]" TypeError, a plugins string
 * as "map is not a function", a config that is no object and a model that is no string only once
 * opencode refused its config (OPENCODE_FAILED), and a port given as text listened on a pipe.
 */
function checkOptionTypes(options: E2EOptions): void {
  const refuse = (option: string, message: string): never => {
    throw new ToolTesterError("USAGE", `runE2E's ${option} must be ${message}`, { data: { option } })
  }
  const { directory, plugins, config, port, signal, onProgress, copyProject } = options
  if ((directory as unknown) instanceof URL)
    refuse("directory", "a path, not a URL: pass fileURLToPath(url) (from node:url)")
  if (typeof directory !== "string" || directory === "")
    refuse("directory", `the project folder's path, a string, not ${described(directory)}`)
  if (plugins !== undefined && (!Array.isArray(plugins) || !plugins.every((spec) => typeof spec === "string")))
    refuse("plugins", `an array of plugin specs, such as ["./my-plugin"], not ${described(plugins)}`)
  for (const option of ["opencode", "opencodeVersion", "model", "provider", "agent", "tempDirectory"] as const) {
    const value = options[option]
    if (value !== undefined && (typeof value !== "string" || value === ""))
      refuse(option, `a non-empty string, not ${described(value)}`)
  }
  if (config !== undefined && !isRecord(config))
    refuse(
      "config",
      `an object as opencode.json holds, such as { permission: { task: "deny" } }, not ${described(config)}`,
    )
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    refuse("port", `a port number from 0 to 65535 (0: any free port), not ${described(port)}`)
  if (copyProject !== undefined && typeof copyProject !== "boolean")
    refuse("copyProject", `true or false, not ${described(copyProject)}`)
  if (signal !== undefined && !((signal as unknown) instanceof AbortSignal))
    refuse("signal", `an AbortSignal, such as new AbortController().signal, not ${described(signal)}`)
  if (onProgress !== undefined && typeof onProgress !== "function")
    refuse("onProgress", `a function told each phase, not ${described(onProgress)}`)
}

/** `opencode run`'s arguments: JSON events, the mock model, the agent asked for, the prompt. */
function runArguments(modelId: string, agent: string | undefined, prompt: string): string[] {
  // Warnings and errors of opencode's log go to stderr: they hold the causes behind its terse error events.
  return [
    "run",
    "--print-logs",
    "--log-level",
    "WARN",
    "--format",
    "json",
    "-m",
    modelId,
    ...(agent === undefined ? [] : ["--agent", agent]),
    // A prompt starting with a dash ("--help", "-m") would be read as opencode's option.
    "--",
    prompt,
  ]
}

/** USAGE for a script feature the provider's API cannot send (the script problems below). */
function checkScriptForProvider(script: Script, provider: string): void {
  const problem = scriptProblems[provider]?.(script)
  if (problem === undefined) return
  throw new ToolTesterError(
    "USAGE",
    `The e2e script cannot be played as ${provider}: ${problem}, or pick another --provider.`,
    { data: { provider } },
  )
}

/** What each provider whose API cannot send a script feature refuses, by npm package. */
const scriptProblems: Readonly<Record<string, (script: Script) => string | undefined>> = {
  "@ai-sdk/google": googleScriptProblem,
  "@ai-sdk/google-vertex": googleScriptProblem,
  "@ai-sdk/cohere": cohereScriptProblem,
}

/**
 * USAGE for a provider whose requests the mock model cannot answer: opencode sent them to a route
 * of another API.
 */
function unspokenProvider(mock: MockModel, provider: string, result: E2EResult): ToolTesterError {
  const first = mock.unrouted[0]!
  return new ToolTesterError(
    "USAGE",
    `opencode sent the model's requests for ${provider} to ${first.method} ${first.path}, an API e2e's mock model does not speak: it answers the OpenAI chat-completions and responses APIs, which openai-compatible (the default), openai and most OpenAI-compatible providers use, Anthropic's messages API, which anthropic and @ai-sdk/google-vertex/anthropic use, Google's generateContent, which google uses, Bedrock's Converse API, which amazon-bedrock uses, the AI Gateway's, which @ai-sdk/gateway uses, and Cohere's chat, which cohere uses (docs/cli.md#e2e lists them); leave out --provider or pick one of those`,
    { data: { provider, unrouted: mock.unrouted, result } },
  )
}

/**
 * For a run that never reached the model: whether the program is opencode at all, by its `--help`
 * (opencode-identity.ts), unless an opencode package holds it. Another program (Node, Bun, a
 * script) is marked `notOpencode`, and the version it printed is not reported as opencode's.
 */
async function checkIdentity(result: E2EResult, binary: string): Promise<void> {
  if (opencodePackageVersion(binary) !== undefined) return
  if ((await opencodeIdentity(binary, identityTimeoutMs)) !== "other") return
  result.opencodeVersion = null
  result.notOpencode = "its --help lists no `opencode run`"
}

/** How long a program that never reached the model has to answer `--help` (opencode takes 1 to 2 s). */
const identityTimeoutMs = 15_000

/** OPENCODE_FAILED for a run that failed before it asked the model anything, with its cause. */
function endedBeforeTheModel(
  result: E2EResult,
  stderrErrors: E2EError[],
  sandbox: { project: string; home: string },
  directory: string,
): ToolTesterError {
  const uncaught = lastUncaughtError(stderrErrors, sandbox)
  const unparsable = unparsableConfig(stderrErrors, sandbox.project, directory)
  // Bun's `error:` line says more than the stack frame printed last; so does the first line of a
  // config file opencode could not parse, whose report ends with `--- End ---`.
  const detail = uncaught
    ? `${uncaught.line}${uncaught.file === undefined ? "" : ` at ${uncaught.file}`}`
    : (unparsable ?? stderrErrors.at(-1)?.message ?? `exit code ${result.exitCode}`)
  // opencode names the setting it refused in the line above its error (`↳ Expected ... attachment.image`).
  const hint =
    unparsable !== undefined
      ? "opencode could not parse a config file: fix its JSON"
      : stderrErrors.some((error) => error.message.includes("Configuration is invalid"))
        ? "opencode refused its config: fix that setting in the project's opencode.json or in the config given"
        : `Check that ${result.opencode} is an opencode binary.`
  if (result.notOpencode !== undefined)
    return new ToolTesterError(
      "OPENCODE_FAILED",
      `${result.opencode} ended before talking to the model (${detail}): it is not opencode (${result.notOpencode}). Pass opencode's binary with --opencode, or leave --opencode out to use an installed one.`,
      { data: { result } },
    )
  return new ToolTesterError("OPENCODE_FAILED", `opencode ended before talking to the model (${detail}). ${hint}`, {
    data: { result },
  })
}

/**
 * opencode's report of a config file that is not JSON(C), as one line with the file as the user
 * knows it (the copy's path is of a folder removed by now): `Config file at <path> is not valid
 * JSON(C): InvalidSymbol at line 1, column 2` (its first error, from the lines under `--- Errors ---`).
 */
function unparsableConfig(stderrErrors: E2EError[], copy: string, directory: string): string | undefined {
  const lines = stderrErrors.filter((error) => error.source === "stderr").map((error) => error.message)
  const index = lines.findIndex((line) => /Config file at .+ is not valid JSON/.test(line))
  if (index === -1) return undefined
  const [, file] = /Config file at (.+?) is not valid JSON/.exec(lines[index]!) ?? []
  const inCopy = path.relative(copy, file!)
  const shown = inCopy.startsWith("..") || path.isAbsolute(inCopy) ? file! : path.join(directory, inCopy)
  const errors = lines.findIndex((line, at) => at > index && line.trim() === "--- Errors ---")
  const first = errors === -1 ? undefined : lines[errors + 1]?.trim()
  return `Config file at ${shown} is not valid JSON(C)${first === undefined ? "" : `: ${first}`}`
}

function absolutePluginSpec(spec: string, directory: string): string {
  const isPath = spec.startsWith(".") || isAbsolute(spec)
  return isPath ? resolve(directory, spec) : spec
}

function firstMainTools(mock: MockModel): unknown[] | null {
  const first = mock.requests.find((request) => request.kind === "main")
  const body = first?.body as { tools?: unknown; toolConfig?: { tools?: unknown } } | undefined
  if (Array.isArray(body?.tools)) return body.tools
  // Bedrock's Converse API offers them in `toolConfig`.
  return Array.isArray(body?.toolConfig?.tools) ? body.toolConfig.tools : null
}

/**
 * The per-call bound: armed when the model's answer asks for calls, cleared when opencode sends the
 * next request (it carries their results); its signal aborts when a call is past the bound.
 */
function callTimer(callTimeoutMs: number | undefined): {
  signal: AbortSignal
  onMainRequest: (calls: ReadonlyArray<Pick<ServedCall, "id" | "name">>) => void
  clear: () => void
} {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const clear = () => clearTimeout(timer)
  return {
    signal: controller.signal,
    onMainRequest: (calls) => {
      clear()
      if (callTimeoutMs === undefined || calls.length === 0) return
      timer = setTimeout(() => controller.abort(), callTimeoutMs)
    },
    clear,
  }
}

/**
 * The error of a run stopped at a bound: the whole run's (`--timeout`) or a call's own
 * (`--call-timeout`, from when the model asked for it). A call still running is TOOL_TIMEOUT.
 */
function timeoutError(
  mock: MockModel,
  bound: { ms: number; flag: "--timeout" | "--call-timeout" },
  result: E2EResult,
): ToolTesterError {
  const pending = mock.pendingCalls()
  const within = bound.flag === "--call-timeout" ? `${bound.ms} ms of the model asking for it` : `${bound.ms} ms`
  if (pending.length > 0) {
    const names = pending.map((call) => `${call.name} (${call.id})`).join(", ")
    return new ToolTesterError(
      "TOOL_TIMEOUT",
      `The tool call ${names} did not finish within ${within}; opencode was stopped. Fix the tool or raise ${bound.flag}.`,
      { data: { pending: pending.map((call) => call.id), result } },
    )
  }
  return new ToolTesterError(
    "OPENCODE_FAILED",
    `opencode did not finish within ${bound.ms} ms (${mock.requests.length} model requests) and was stopped. Raise --timeout, or see the errors in the result.`,
    { data: { result } },
  )
}
