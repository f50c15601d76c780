// An engine's process: the one task server, for both engines. Bun runs it as the bun engine
// (`BUN_BE_BUN=1 opencode bun-serve.js`, or `bun bun-serve.js`), Node as the node engine
// (`node node-serve.js`); the build bundles it once for each (scripts/bundle.mjs). It loads
// one project, as opencode does, and runs the whole pipeline here, where the tools' zod objects
// live: either the CLI's one task, or the library's calls for as long as the Node side keeps the
// project. Tool output goes to this process's own stdout and stderr; messages go over the engine's
// channel only (engine-channel.ts), which is opened here, before any user module can load.

import { flushStdio } from "../_flush-stdio.ts"
import { jsonSafe, safeStringify } from "../_json-safe.ts"
import { restoreBuiltins } from "../_pristine.ts"
import { importEvents } from "../discovery/import-module.ts"
import { messageOfThrown, ToolTesterError } from "../errors.ts"
import { getToolSchemas } from "../list-tools.ts"
import { loadProjectHere } from "../load-tools.ts"
import { callTool, runTool } from "../run-tool.ts"
import { listTask } from "../tasks/list-task.ts"
import { runTask } from "../tasks/run-task.ts"
import { schemaTask } from "../tasks/schema-task.ts"
import type { ClientSource } from "../client/project-client.ts"
import { type PerformTask, taskEvents } from "../tasks/task-project.ts"
import type { ToolProject } from "../types.ts"
import { keepGoingOnEscapes } from "../runtime/escaped-errors.ts"
import { engineHere, inBun } from "../runtime/here.ts"
import { ENGINE_MARK, endMarked, endProcessTree } from "../runtime/process-tree.ts"
import { CHANNEL_CLOSED_EXIT_CODE } from "../engine-client/channel-closed.ts"
import { openEngineChannel } from "./engine-channel.ts"
import { MAX_FRAME_BYTES } from "../engine-client/frames.ts"
import type { CrossingError, EngineCall, FromEngine, ToEngine } from "../engine-client/protocol.ts"
import type { Task, TaskCommand } from "../tasks/task.ts"
import { projectSnapshot } from "./snapshot.ts"
import { builtinsAreTheTools } from "../pipeline/builtins-between-calls.ts"
import { exitEndsTheEngine } from "../runtime/exit-in-call.ts"
import { opencodeAbortReason } from "../pipeline/opencode-abort.ts"
import { timeoutEvents } from "../pipeline/with-timeout.ts"
import { wait } from "../runtime/pending-work.ts"

// Set only so that the opencode executable would act as Bun: the tools must not inherit it (a tool
// that starts `opencode` would get a Bun).
delete process.env["BUN_BE_BUN"]
// Given to the node engine's process for its own code (spawn-engine.ts): not the tools' to inherit.
delete process.env["NODE_COMPILE_CACHE"]
// Left in the environment for the tools' processes to inherit (spawn-engine.ts); kept here too, in
// case a tool deletes it.
const mark = process.env[ENGINE_MARK]
// Nothing but tools and tool-tester runs here: a change of the built-ins found between two calls is
// a tool's (pipeline/builtins-between-calls.ts).
builtinsAreTheTools()
// A tool's process.exit ends this process, as it would end opencode: the Node side reports it.
exitEndsTheEngine()

// doctor and fuzz are imported when asked for: fuzz brings fast-check (~15 ms of every start in
// Bun), doctor the provider lint, and neither is on the way to a `run`.
const tasks: { [C in TaskCommand]: PerformTask<C> } = {
  list: listTask,
  schema: schemaTask,
  doctor: async (input, reached) => (await import("../tasks/doctor-task.ts")).doctorTask(input, reached),
  run: runTask,
  fuzz: async (input, reached) => (await import("../tasks/fuzz-task.ts")).fuzzTask(input, reached),
  "eval-tools": async (input, reached) => (await import("../tasks/eval-tools-task.ts")).evalToolsTask(input, reached),
  "eval-cases": async (input, reached) => (await import("../tasks/eval-cases-task.ts")).evalCasesTask(input, reached),
  "eval-grade": async (input, reached) => (await import("../tasks/eval-cases-task.ts")).evalGradeTask(input, reached),
}

// The process object as it was: a tool may replace or delete globalThis.process, and this process
// must still answer, exit and report what the tool did.
const engineProcess: NodeJS.Process = process

// The Node side went away (it exited, or was killed; not a tool closing descriptor 0, which the
// channel reports itself): end this process and whatever the tools started in its process group.
// A tool closed the channel's descriptor: nothing can be answered, and the exit code says why
// (taken now: a tool may replace process.exit); the channel has made the Node side's file first,
// which tells this exit from a tool's own process.exit(87).
const exitNow = engineProcess.exit.bind(engineProcess)
const channel = openEngineChannel({
  onMessage: receive,
  onGone: () => endGroup(),
  onClosed: () => exitNow(CHANNEL_CLOSED_EXIT_CODE),
})
/** setImmediate as it was before any tool loaded (printedSoFar). */
const pristineSetImmediate = setImmediate
const send = (message: FromEngine, tooLarge?: (bytes: number) => FromEngine) => channel.send(message, tooLarge)

// In opencode a tool's process has no IPC channel: `process.send`, `process.channel` and
// `process.disconnect` are undefined there (docs/opencode-contract.md#what-a-tool-can-do-to-the-harness).
// This process is started without one; a runtime that set one up anyway (from an inherited
// NODE_CHANNEL_FD) is not the tools' to use.
for (const key of ["send", "channel", "disconnect"]) Reflect.deleteProperty(engineProcess, key)

// Node writes to a pipe in the background and keeps what the pipe cannot take yet in memory: a
// tool that printed a gigabyte at once lost all but its first megabyte (the queued write failed with
// ENOBUFS), and what is still queued when the process exits is lost. Blocking writes hand all of it
// to the pipe, where the CLI reads and counts it (stream-capture.ts). Bun's writes stay as in opencode.
if (!inBun) for (const stream of [process.stdout, process.stderr]) writeBlocking(stream)

function writeBlocking(stream: NodeJS.WriteStream): void {
  ;(stream as unknown as { _handle?: { setBlocking?: (blocking: boolean) => unknown } })._handle?.setBlocking?.(true)
}

// An error that escapes a tool (a promise left to reject, a throw in a timer) does not end this
// process, as it does not stop opencode: it is printed on stderr, and the calls running list it.
keepGoingOnEscapes()

// What opencode puts in the environment its tools and plugins run with
// (docs/opencode-contract.md#plugin-input, the plugin-shell golden): tools can tell they run inside it.
engineProcess.env["OPENCODE"] = "1"
engineProcess.env["OPENCODE_PID"] = String(engineProcess.pid)

/** Into the project folder, as opencode runs there: the working directory and PWD. */
function enter(directory: string): void {
  engineProcess.chdir(directory)
  engineProcess.env["PWD"] = directory
}

send({ type: "ready", engine: engineHere() })

let project: Promise<ToolProject> | undefined
const controllers = new Map<number, AbortController>()
/**
 * How long the answer waits for stdout and stderr to be handed over. They are the tools' streams
 * too: a tool that broke one (its internal state, its events) would otherwise hold the answer back
 * until the Node side's bound, and lose a result it had returned. Bun hands a 512 MiB print over
 * in under a second.
 */
const FLUSH_BOUND_MS = 1_000

/** Calls aborted before they reached their tool (the abort can overtake the call while the project loads). */
const abortedEarly = new Set<number>()

function abort(id: number): void {
  const controller = controllers.get(id)
  if (controller) controller.abort(opencodeAbortReason())
  else abortedEarly.add(id)
}

/**
 * How long a call answered TOOL_TIMEOUT has, after its abort signal, for its tool to stop: past it
 * the Node side is told, and ends this engine. The same grace the Node side gives a tool that keeps
 * this process busy past its timeout (remote-project.ts).
 */
const UNSTOPPED_GRACE_MS = 1_000

// A tool that ignores its abort signal goes on after its call was answered TOOL_TIMEOUT: with the
// timers, children and sockets it keeps, into every later call of this engine.
timeoutEvents.onTimedOut = (signal, tool) => {
  const entry = [...controllers].find(([, controller]) => controller.signal === signal)
  if (!entry) return
  const [id] = entry
  const name = callNames.get(id) ?? "the tool"
  void Promise.race([tool.then(stopped, stopped), wait(UNSTOPPED_GRACE_MS).then(() => false)]).then((didStop) => {
    if (!didStop) send({ type: "unstopped", id, name, graceMs: UNSTOPPED_GRACE_MS })
  })
}
const stopped = () => true
/** The tool each running call names. */
const callNames = new Map<number, string>()

function receive(message: ToEngine): void {
  if (message.type === "task") void serveTask(message.cwd, message.task as Task)
  else if (message.type === "call") {
    if (message.aborted) abortedEarly.add(message.id)
    void serveCall(message.id, message)
  } else if (message.type === "client-reply") clientReplies.get(message.id)?.(message)
  else if (message.type === "abort") abort(message.id)
}

/** Calls of the plugins' client that the library's stub answers, on the Node side. */
const clientReplies = new Map<number, (reply: Extract<ToEngine, { type: "client-reply" }>) => void>()
let nextClientCall = 1
const relayClient: ClientSource = {
  kind: "relay",
  call: (method, args) =>
    new Promise((resolve, reject) => {
      const id = nextClientCall++
      clientReplies.set(id, (reply) => {
        clientReplies.delete(id)
        if ("error" in reply) reject(new ToolTesterError(reply.error.code as never, reply.error.message))
        else resolve(reply.value === undefined ? undefined : JSON.parse(reply.value))
      })
      send({ type: "client", id, method, args: safeStringify(args) })
    }),
}

async function serveTask(cwd: string, task: Task): Promise<void> {
  enter(cwd)
  try {
    const perform = tasks[task.command] as PerformTask<TaskCommand>
    importEvents.onImport = (file) => send({ type: "loading", file })
    importEvents.onInit = (file, init) => send({ type: "loading", file, init })
    importEvents.onModules = (files, now) => {
      followModules(files, now)
      send({ type: "modules", files })
    }
    taskEvents.onServerLog = (line) => send({ type: "server-log", line })
    // run's call waits a moment after the tool returns, for errors that escape just after (run-tool.ts).
    const payload = await perform(task.input as never, (reached) => send({ type: "loaded", reached }))
    restoreBuiltins()
    sendNewModules()
    const text = safeStringify({ ...(payload as object), engine: engineHere() })
    // What the tool printed is in the pipes before the answer; the CLI then ends this process. Past
    // the bound (a loaded machine, a huge print) the answer says so, and the CLI reads on first.
    const flushed = await flushStdio(FLUSH_BOUND_MS)
    send(flushed ? { type: "done", payload: text } : { type: "done", payload: text, unflushed: true }, (bytes) =>
      flushed
        ? { type: "failed", error: tooLarge(bytes) }
        : { type: "failed", error: tooLarge(bytes), unflushed: true },
    )
  } catch (error) {
    const flushed = await flushStdio(FLUSH_BOUND_MS)
    const failure = failureOf(error)
    send(flushed ? { type: "failed", error: failure } : { type: "failed", error: failure, unflushed: true })
  }
}

async function serveCall(id: number, call: EngineCall): Promise<void> {
  try {
    const value = await perform(id, call)
    restoreBuiltins()
    await printedSoFar()
    if (call.method === "run" || call.method === "call") sendNewModules()
    send({ type: "reply", id, value: safeStringify(value) }, (bytes) => ({ type: "reply", id, error: tooLarge(bytes) }))
  } catch (error) {
    await printedSoFar()
    const failure = failureOf(error)
    const data = ToolTesterError.isInstance(error) ? error.data : undefined
    send({ type: "reply", id, error: data === undefined ? failure : { ...failure, data: jsonSafe(data) as never } })
  } finally {
    controllers.delete(id)
    callNames.delete(id)
  }
}

async function perform(id: number, call: EngineCall): Promise<unknown> {
  if (call.method === "load") {
    if (call.params.directory !== undefined) enter(call.params.directory)
    // Each file as its import starts: a load that never ends is reported with the file it is on.
    importEvents.onImport = (file) => send({ type: "loading", file })
    importEvents.onInit = (file, init) => send({ type: "loading", file, init })
    // The snapshot carries the load's modules; those a call imports later are sent with its reply.
    importEvents.onModules = followModules
    try {
      project = loadProjectHere(call.params, call.params.relayClient ? { clientSource: relayClient } : {})
      return projectSnapshot(await project)
    } finally {
      importEvents.onImport = undefined
      importEvents.onInit = undefined
      importEvents.onModules = undefined
    }
  }
  if (!project) throw new Error("the engine got a call before the project was loaded")
  const loaded = await project
  if (call.method === "schemas") {
    const schemas = await getToolSchemas(loaded, call.params)
    if (schemas.success) return schemas
    const { code, message, data } = schemas.error
    return { success: false, error: { code, message, data } }
  }
  if (call.method === "doctor") return (await import("../tasks/doctor-task.ts")).doctorProject(loaded, call.params)
  const controller = new AbortController()
  controllers.set(id, controller)
  callNames.set(id, call.method === "run" ? call.params.name : call.params.call.name)
  if (abortedEarly.delete(id)) controller.abort(opencodeAbortReason())
  const options = { ...call.params.options, signal: controller.signal }
  return call.method === "run"
    ? runTool(loaded, call.params.name, call.params.args, options)
    : callTool(loaded, call.params.call, options)
}

/** The module files the loaded project's modules have imported so far, and how many the Node side was told of. */
let modulesNow: (() => string[]) | undefined
let modulesSent = 0

function followModules(files: string[], now: () => string[]): void {
  modulesNow = now
  modulesSent = files.length
}

/**
 * A call that imported modules the load did not (an `import()` inside `execute`): the Node side is
 * told the whole list again, before the call's answer, so that `dev` and `run --watch` watch them.
 * The list only grows (imported modules stay imported), so its length says whether it did.
 */
function sendNewModules(): void {
  let files: string[] | undefined
  try {
    files = modulesNow?.()
  } catch {
    // A module cache a tool broke names nothing more.
  }
  if (files === undefined || files.length <= modulesSent) return
  modulesSent = files.length
  send({ type: "modules", files })
}

/** An answer the channel cannot carry (a tool's metadata or attachments of tens of megabytes). */
function tooLarge(bytes: number): CrossingError {
  return {
    code: "RESULT_TOO_LARGE",
    message: `the answer is ${bytes} bytes, more than the ${MAX_FRAME_BYTES} bytes the engine's channel carries: return less (large data belongs in a file the tool writes)`,
  }
}

function failureOf(error: unknown): CrossingError {
  return ToolTesterError.isInstance(error)
    ? { code: error.code, message: error.message }
    : { code: "INTERNAL", message: internalMessage(error) }
}

function endGroup(): never {
  try {
    // Those that left the group first (this process is spared): the group's signal ends this one.
    if (mark !== undefined) endMarked(mark)
    // The engine leads its own process group (it is started detached): this ends the tools' children too.
    endProcessTree(engineProcess.pid)
  } catch {}
  engineProcess.exit(0)
}

function internalMessage(error: unknown): string {
  try {
    return error instanceof Error ? (error.stack ?? error.message) : String(error)
  } catch {
    return messageOfThrown(error)
  }
}

/**
 * Resolves once the event loop has turned: Bun hands what console.log printed to the pipe then, not
 * at once. A call's answer waits for it, so that the library reads what the call printed before its
 * answer (and writes it through a test runner's console under the test: relayed-console.ts).
 */
function printedSoFar(): Promise<void> {
  return new Promise((resolve) => Reflect.apply(pristineSetImmediate, undefined, [resolve]))
}
