// What an e2e run found out, assembled from three witnesses: the request bodies the mock model
// received (the tools offered, each call as opencode stored and answered it), the JSON events
// `opencode run --format json` printed (each tool part's status, title and metadata), and the
// files opencode left in its data folder (tool-output files, error lines of its log).

import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import { bedrockToolUseId } from "../pipeline/bedrock-messages.ts"
import { callHistory, type E2EToolCall } from "./call-history.ts"
import { idlessCallIds } from "./idless-calls.ts"
import type { CapturedRequest, ServedCall } from "./mock-model.ts"
import { bedrockRequestOf } from "./model-apis/bedrock-converse.ts"
import { modelRouteFor } from "./model-apis/model-api.ts"

export type { E2EToolCall } from "./call-history.ts"

export interface E2ECall {
  /** Index of the script turn that made the call (0-based). */
  turn: number
  /**
   * The provider's tool call id. Google's API carries none: the id `@ai-sdk/google` made up, as
   * opencode's tool part gives it (the mock's own `call_1`, ... when opencode reported no part).
   */
  id: string
  /** The call as the mock model sent it. */
  as_called: E2EToolCall
  /** The call as opencode stored it in the next request's history (after case repair or `invalid` rerouting); null when no request followed. */
  as_run: E2EToolCall | null
  /** The tool result text the model received in the next request; null when no request followed. */
  result: string | null
  /** The tool part's state in opencode's events (`completed`, `error`); null when opencode reported none. */
  status: string | null
  title: string | null
  metadata: Record<string, unknown> | null
  /** The error text of a tool part in `error` status. */
  error: string | null
  /** The arguments object the tool was run with, per opencode's tool part. */
  input: unknown
  /** The tool opencode ran, per its tool part. */
  tool: string | null
}

export interface E2EToolOutputFile {
  name: string
  bytes: number
  /** The file text, when under 1 MiB. */
  content?: string
}

export interface E2EError {
  /**
   * `event`: an opencode error event; `log`: a WARN or ERROR line of its log; `stderr`: anything
   * else it printed there; `exit`: opencode ended while a tool call was still running (its own
   * session failed, as its error event says, or, with no such error, a tool that called
   * process.exit ended opencode with it); `plugin`: a configured plugin e2e could not give opencode
   * (an npm spec whose package is not installed in the project); `stdout`: calls opencode reported
   * nothing of after its stdout carried a flood of other text (`outputFlood`).
   */
  source: "event" | "stderr" | "log" | "exit" | "plugin" | "stdout"
  message: string
}

export interface E2EResult {
  /** The opencode binary that ran. */
  opencode: string
  /** Its version (from its package, else `opencode --version`), or null when neither says. */
  opencodeVersion?: string | null
  /**
   * Why the program run is not opencode, when a run that never reached the model made e2e ask it
   * (its `--help` lists no `opencode run`); `opencodeVersion` is then null, since a number such a
   * program prints (Node's, Bun's) is not opencode's. Absent otherwise.
   */
  notOpencode?: string
  /** `<provider>/<model>` as given to `opencode run -m`. */
  model: string
  /** The `tools` array of the first main request, as opencode sent it; null when no main request came. */
  tools: unknown[] | null
  /** Every request body the mock model received, in order (the title request first). */
  requests: CapturedRequest[]
  calls: E2ECall[]
  /** The JSON events `opencode run --format json` printed. */
  events: unknown[]
  /** Files opencode wrote under `<data>/opencode/tool-output` (full outputs of truncated results). */
  toolOutputFiles: E2EToolOutputFile[]
  errors: E2EError[]
  /** opencode's exit code (null when it was killed). */
  exitCode: number | null
  durationMs: number
  /** Where the run happened (already deleted); useful to normalise paths in outputs. */
  sandbox: { project: string; home: string; data: string }
}

/**
 * Reads `opencode run --format json` output: one JSON event per line, other lines ignored. Tools
 * run in opencode's process and print to the same stdout, so a line is an event only in the shape
 * opencode gives every event (1.15.13 and 1.18.34 alike): `type`, `timestamp` and `sessionID`. A
 * tool's JSON log line (`{"type":"error",...}`, `{"level":"info",...}`) is not taken for one.
 */
export function parseEvents(stdout: string): unknown[] {
  const events: unknown[] = []
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue
    let event: unknown
    try {
      event = JSON.parse(line)
    } catch {
      // A partial line from a killed process, or a tool's own text.
      continue
    }
    const record = asObject(event)
    if (
      typeof record?.type === "string" &&
      typeof record.timestamp === "number" &&
      typeof record.sessionID === "string"
    )
      events.push(event)
  }
  return events
}

/** Builds the per-call view from what the mock served, the later requests, and the events. */
export function collectCalls(servedCalls: ServedCall[], requests: CapturedRequest[], events: unknown[]): E2ECall[] {
  const parts = toolParts(events)
  const isIdless = (served: ServedCall) =>
    modelRouteFor(requests[served.requestIndex]?.path ?? "")?.idlessArguments !== undefined
  const ids = idlessCallIds(servedCalls, requests, events, isIdless)
  return servedCalls.map((served) => {
    const turnCalls = servedCalls.filter((other) => other.requestIndex === served.requestIndex)
    const history = callHistory(
      served,
      requests,
      isIdless(served) ? { position: turnCalls.indexOf(served), of: turnCalls.length } : undefined,
    )
    const id = ids.get(served) ?? providerCallId(served, requests)
    const part = parts.get(id)
    const state = asObject(part?.state)
    return {
      turn: served.turn,
      id,
      as_called: { name: served.name, arguments: served.arguments },
      as_run: history?.call ?? null,
      result: history?.result ?? null,
      status: typeof state?.status === "string" ? state.status : null,
      title: typeof state?.title === "string" ? state.title : null,
      metadata: asObject(state?.metadata) ?? null,
      error: typeof state?.error === "string" ? state.error : null,
      input: state?.input ?? null,
      tool: typeof part?.tool === "string" ? part.tool : null,
    }
  })
}

/**
 * The id opencode knows a served call by: the one sent, but for a Mistral model on Bedrock, whose
 * ids `@ai-sdk/amazon-bedrock` cuts to their first 9 letters and digits as it reads them (observed:
 * `call_abc-123_def` is `callabc12` in opencode's tool part and the tool's `context.callID`).
 */
function providerCallId(served: ServedCall, requests: readonly CapturedRequest[]): string {
  const bedrock = bedrockRequestOf(requests[served.requestIndex]?.path ?? "")
  return bedrock === undefined ? served.id : bedrockToolUseId(served.id, bedrock.model)
}

/**
 * Calls opencode never finished because it ended first, whatever its exit code. Why it ended is
 * told from what it printed (`errors`: its error events and log lines): its own session failed
 * when it reported an error (observed on 1.18.34: a result whose `metadata` holds a function ends
 * the run with the error event "The object can not be cloned.", one holding a BigInt with
 * "JSON.stringify cannot serialize BigInt.", each exit code 1); a tool that calls process.exit
 * ends opencode with no error of its own (exit code 0 for `process.exit(0)`, no event, no log line).
 */
export function unfinishedCalls(calls: E2ECall[], exitCode: number | null, errors: E2EError[] = []): E2EError[] {
  const failure = sessionFailure(errors)
  const ended = `opencode ended (exit code ${exitCode ?? "none: killed"})`
  return calls
    .filter((call) => call.result === null && call.status !== "completed" && call.status !== "error")
    .map((call) => ({
      source: "exit" as const,
      message:
        failure === undefined
          ? `${ended} while ${call.as_called.name} was running, before the model got its result; a tool that calls process.exit ends opencode itself`
          : `${ended} while ${call.as_called.name} was running, before the model got its result, because its own session failed: ${JSON.stringify(failure)}; that is opencode's error, not the tool ending the process: look at what the call returned (opencode fails the run on metadata it cannot copy or serialise, such as a function or a BigInt)`,
    }))
}

/**
 * Why opencode reported nothing of some calls (no tool part: the transcript's `no result`), when
 * its stdout carried a flood of text that was not its events: what tools print goes to the same
 * stdout, and opencode loses the events still waiting behind such a flood as it exits (observed on
 * 1.18.34: a tool writing 300 MB in one write, every event of the run lost, exit code 0, the model
 * still given the result). One
 * entry, or none when every call was reported or the rest of stdout was small.
 */
export function outputFlood(calls: E2ECall[], stdoutLeftOut: number): E2EError[] {
  const unreported = calls.filter((call) => call.status === null)
  if (unreported.length === 0 || stdoutLeftOut < FLOOD_CHARACTERS) return []
  const names = unreported.map((call) => `${call.as_called.name} (${call.id})`).join(", ")
  const megabytes = Math.round(stdoutLeftOut / (1024 * 1024))
  return [
    {
      source: "stdout",
      message: `opencode reported no result for ${names}: its stdout carried ${megabytes} MB of text that was not its events, printed by a tool, and opencode loses the events still waiting behind such a flood when it exits; that flood is the likely reason: have the tool print less, or write to a file`,
    },
  ]
}

/**
 * The error opencode reported for its own session, from what it printed: its first error event,
 * else the `error="..."` of an ERROR line its session processor logged; undefined when it reported none.
 */
export function sessionFailure(errors: ReadonlyArray<{ source: string; message: string }>): string | undefined {
  const event = errors.find((error) => error.source === "event")
  if (event !== undefined) return event.message
  const logged = errors.find(
    (error) => error.source === "log" && /^level=ERROR .*\bmessage=process\b/.test(error.message),
  )
  if (logged === undefined) return undefined
  const quoted = /\berror="((?:[^"\\]|\\.)*)"/.exec(logged.message)?.[1]
  return quoted === undefined ? logged.message : quoted.replace(/\\(.)/g, "$1")
}

/** The messages of opencode's error events. */
export function eventErrors(events: unknown[]): E2EError[] {
  return events.flatMap((event) => {
    const record = asObject(event)
    if (record?.type !== "error") return []
    const error = asObject(record.error)
    const message = asObject(error?.data)?.message ?? error?.message ?? error?.name ?? JSON.stringify(record.error)
    return [{ source: "event" as const, message: String(message) }]
  })
}

/**
 * opencode's stderr: its log lines (WARN and ERROR with `--print-logs`) and anything else it printed,
 * without the colours opencode gives its own warnings even off a terminal (`agent "x" not found`).
 */
export function stderrLines(stderr: string): E2EError[] {
  return stderr
    .replace(colourCodes, "")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) =>
      line.startsWith("timestamp=")
        ? { source: "log" as const, message: line.replace(/^timestamp=\S+ /, "") }
        : { source: "stderr" as const, message: line },
    )
}

/** The files under `<data>/opencode/tool-output`, with their text when small. */
export async function readToolOutputFiles(dataHome: string): Promise<E2EToolOutputFile[]> {
  const folder = join(dataHome, "opencode", "tool-output")
  const names = await readdir(folder).catch(() => [] as string[])
  const files: E2EToolOutputFile[] = []
  for (const name of names.sort()) {
    const bytes = await readFile(join(folder, name)).catch(() => undefined)
    if (bytes === undefined) continue
    files.push(
      bytes.length < 1024 * 1024
        ? { name, bytes: bytes.length, content: bytes.toString("utf8") }
        : { name, bytes: bytes.length },
    )
  }
  return files
}

// --- internal ---

/**
 * Text on opencode's stdout besides its events past which a lost report is put down to it (8 MB):
 * what reaches e2e is what opencode wrote before it exited (25 and 35 MB of a tool's 300 MB write,
 * on 1.18.34), and a 50 MB write lost nothing.
 */
const FLOOD_CHARACTERS = 8 * 1024 * 1024

/** SGR sequences (`ESC [ 93 ; 1 m`): colour and weight, which say nothing a line's text does not. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding the escape character is what it is for.
const colourCodes = /\u001b\[[0-9;]*m/g

/** Tool parts by call id, the last event winning (parts are reported as their state changes). */
function toolParts(events: unknown[]): Map<string, Record<string, unknown>> {
  const parts = new Map<string, Record<string, unknown>>()
  for (const event of events) {
    const part = asObject(asObject(event)?.part)
    if (part?.type === "tool" && typeof part.callID === "string") parts.set(part.callID, part)
  }
  return parts
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}
