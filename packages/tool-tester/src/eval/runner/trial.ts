// One trial: one case on one model, in a session of its own. The case's prompt, then each
// follow-up turn, is a `POST /session/{id}/message` naming the model and agent; the request ends
// when opencode has finished the turn. While it runs, three things may stop it, each by aborting
// the session (`POST /session/{id}/abort`): more than `maxCalls` tool calls in the turn (LOOP,
// counted by the guard plugin), the trial's time (TIMEOUT), or opencode retrying a failing
// provider (a 429, an unreachable host) for the third time, seen in `GET /session/status`
// (server-watch.ts).
// Afterwards the session's messages (`GET /session/{id}/message`) are read into the trial: per
// turn the tool parts and the assistant's text, the tokens and cost of the assistant messages, and
// the provider's error if a message has one.

import { definedFields } from "../../_defined-fields.ts"
import type { EvalCase, EvalTrial, TokenUsage, TrialError, TurnRecord, ObservedCall } from "../../eval-cases/types.ts"
import type { ModelPlan } from "./models.ts"
import type { ServerApi } from "./server-api.ts"
import { type MessageError, messageTrialError, retryTrialError } from "./trial-error.ts"

/** A trial's session as the runner's endpoint and status watch see it. */
export interface TrialSession {
  evalCase: EvalCase
  maxCalls: number
  /** The tools the runner let run for real in this trial (the case's `execute`): one may end opencode. */
  ranForReal: Set<string>
  /** Counts a tool call of the current turn; true when it is one too many (the turn is then stopped). */
  countCall(): boolean
  /** Stops the trial with this error (the first stop wins). */
  stop(error: TrialError): void
  /** Told each status opencode reports for the session while a turn runs. */
  onStatus(status: SessionStatus): void
}

export type SessionStatus = { type: string; attempt?: number; message?: string }

export interface TrialOptions {
  api: ServerApi
  sessions: Map<string, TrialSession>
  evalCase: EvalCase
  model: ModelPlan
  run: number
  agent: string | undefined
  timeoutMs: number
  maxCalls: number
  /** The arm (a variant, `without <tool>`), when not the normal run. */
  arm?: string
  /** Tool ids removed from what the model is offered (opencode's per-message `tools` toggles). */
  without?: readonly string[]
  /** Where the tools the trial runs for real are recorded (default: a set of its own). */
  ranForReal?: Set<string>
}

/** opencode's retries of a failing provider after which the trial is stopped. */
const retriesBeforeGivingUp = 2

export async function runTrial(options: TrialOptions): Promise<EvalTrial> {
  const started = performance.now()
  const { api, evalCase, model } = options
  const base = {
    case: evalCase.name,
    ...definedFields({ arm: options.arm }),
    model: model.id,
    run: options.run,
  }
  // A model that cannot be prompted: the trial ends with its error, without a session.
  if (model.error !== undefined) return { ...base, turns: [], error: model.error, durationMs: 0 }
  const prompts = [evalCase.prompt, ...(evalCase.turns ?? []).map((turn) => turn.prompt)]
  let sessionID: string
  try {
    sessionID = (await api.post<{ id: string }>("/session", { title: `tool-tester eval: ${evalCase.name}` })).id
  } catch (error) {
    return { ...base, turns: [], error: opencodeFailed(error), durationMs: elapsed(started) }
  }
  let stopped: TrialError | undefined
  let wake: (() => void) | undefined
  let callsInTurn = 0
  let lastRetry: SessionStatus | undefined
  const stop = (error: TrialError) => {
    stopped ??= error
    wake?.()
  }
  options.sessions.set(sessionID, {
    evalCase,
    maxCalls: options.maxCalls,
    ranForReal: options.ranForReal ?? new Set(),
    countCall: () => {
      callsInTurn += 1
      if (callsInTurn <= options.maxCalls) return false
      stop({
        code: "LOOP",
        message: `The model made more than ${options.maxCalls} tool calls in one turn; the session was stopped (the case's maxCalls).`,
      })
      return true
    },
    stop,
    onStatus: (status) => {
      lastRetry = status.type === "retry" ? status : undefined
      if (lastRetry === undefined) return
      if ((status.attempt ?? 0) > retriesBeforeGivingUp)
        stop(retryTrialError(status.message ?? "", status.attempt ?? 0))
    },
  })
  const deadline = setTimeout(() => {
    // Out of time while opencode retried a failing provider: what failed is the provider.
    if (lastRetry !== undefined) stop(retryTrialError(lastRetry.message ?? "", lastRetry.attempt ?? 0))
    else stop({ code: "TIMEOUT", message: `The trial did not finish within ${options.timeoutMs} ms.` })
  }, options.timeoutMs)
  let failure: TrialError | undefined
  // Each turn's wall time, from its request to opencode's answer (or its stop).
  const turnTimes: number[] = []
  try {
    for (const prompt of prompts) {
      if (stopped !== undefined) break
      const turnStarted = performance.now()
      turnTimes.push(0)
      const timeTurn = () => {
        turnTimes[turnTimes.length - 1] = elapsed(turnStarted)
      }
      callsInTurn = 0
      const answer = api.post<{ info?: { error?: MessageError } }>(
        `/session/${sessionID}/message`,
        turnBody(options, prompt),
      )
      const woken = new Promise<void>((resolve) => {
        wake = resolve
      })
      const outcome = await Promise.race([answer.then((value) => ({ value })), woken.then(() => undefined)])
      timeTurn()
      if (outcome === undefined) {
        await abortTurn(api, sessionID, answer)
        break
      }
      if (outcome.value?.info?.error !== undefined) break
    }
  } catch (error) {
    failure = opencodeFailed(error)
  } finally {
    clearTimeout(deadline)
    options.sessions.delete(sessionID)
  }
  const read = await sessionMessages(api, sessionID)
  failure ??= read.failure
  const { messages } = read
  const trial: EvalTrial = {
    ...base,
    turns: timedTurns(messages, model.priced, turnTimes),
    durationMs: elapsed(started),
  }
  const error = stopped ?? failure ?? lastMessageError(messages)
  if (error !== undefined) trial.error = error
  const tokens = sumTokens(messages)
  if (tokens !== undefined) trial.tokens = tokens
  const cost = sumCost(messages)
  if (cost !== undefined && model.priced) trial.cost = cost
  return trial
}

// --- internal ---

/** Stops a turn that was stopped (timeout, loop, retries): opencode aborts it, and its request ends. */
async function abortTurn(api: ServerApi, sessionID: string, answer: Promise<unknown>): Promise<void> {
  await api.post(`/session/${sessionID}/abort`, {}).catch(() => undefined)
  // The request ends once opencode has stopped the turn; a bound keeps a stuck one from holding the trial.
  await Promise.race([answer.catch(() => undefined), delay(15_000)])
}

/** The session's messages; none, and the failure, when opencode does not answer. */
async function sessionMessages(
  api: ServerApi,
  sessionID: string,
): Promise<{ messages: SessionMessage[]; failure: TrialError | undefined }> {
  try {
    return { messages: await api.get<SessionMessage[]>(`/session/${sessionID}/message`), failure: undefined }
  } catch (error) {
    return { messages: [], failure: opencodeFailed(error) }
  }
}

/** One turn's message to opencode: the model, the agent, the tools `--without` turns off, the prompt. */
function turnBody(options: TrialOptions, prompt: string): Record<string, unknown> {
  const { model, without } = options
  return {
    model: { providerID: model.providerID, modelID: model.modelID },
    ...definedFields({ agent: options.agent }),
    ...(without === undefined || without.length === 0
      ? {}
      : { tools: Object.fromEntries(without.map((id) => [id, false])) }),
    parts: [{ type: "text", text: prompt }],
  }
}

/** The session's turns, each with its wall time (`turnTimes`, in order) where it was measured. */
function timedTurns(messages: SessionMessage[], priced: boolean, turnTimes: number[]): ReturnType<typeof readTurns> {
  const turns = readTurns(messages, priced)
  for (const [index, turn] of turns.entries()) {
    const time = turnTimes[index]
    if (time !== undefined) turn.durationMs = time
  }
  return turns
}

interface SessionPart {
  type: string
  text?: string
  synthetic?: boolean
  ignored?: boolean
  tool?: string
  state?: { status?: string; input?: unknown; output?: string; error?: string }
}

interface SessionMessage {
  info: {
    role: string
    error?: MessageError
    cost?: number
    tokens?: { input?: number; output?: number; reasoning?: number; cache?: { read?: number; write?: number } }
  }
  parts: SessionPart[]
}

/** One turn per user message, holding the tool parts, text, tokens and cost of the assistant messages after it. */
function readTurns(messages: SessionMessage[], priced: boolean): TurnRecord[] {
  const turns: TurnRecord[] = []
  const messagesOf: SessionMessage[][] = []
  for (const message of messages) {
    if (message.info.role === "user") messagesOf.push([])
    else messagesOf.at(-1)?.push(message)
  }
  for (const message of messages) {
    if (message.info.role === "user") {
      const prompt = message.parts
        .filter((part) => part.type === "text" && !part.synthetic)
        .map((part) => part.text ?? "")
        .join("\n")
      turns.push({ prompt, calls: [], text: "" })
      continue
    }
    const turn = turns.at(-1)
    if (turn === undefined) continue
    for (const part of message.parts) {
      if (part.type === "tool" && typeof part.tool === "string") turn.calls.push(observedCall(part))
      if (part.type === "text" && !part.synthetic && !part.ignored && part.text) {
        turn.text = turn.text === "" ? part.text : `${turn.text}\n\n${part.text}`
      }
    }
  }
  for (const [index, turn] of turns.entries()) {
    const own = messagesOf[index] ?? []
    const tokens = sumTokens(own)
    if (tokens !== undefined) turn.tokens = tokens
    const cost = sumCost(own)
    if (cost !== undefined && priced) turn.cost = cost
  }
  return turns
}

function observedCall(part: SessionPart): ObservedCall {
  const state = part.state ?? {}
  const status = ["completed", "error", "pending", "running"].includes(state.status ?? "")
    ? (state.status as ObservedCall["status"])
    : "pending"
  const call: ObservedCall = { tool: part.tool!, args: state.input ?? {}, status }
  if (typeof state.output === "string") call.output = state.output
  if (typeof state.error === "string") call.error = state.error
  return call
}

function lastMessageError(messages: SessionMessage[]): TrialError | undefined {
  const last = messages.filter((message) => message.info.role === "assistant").at(-1)
  return last?.info.error === undefined ? undefined : messageTrialError(last.info.error)
}

function sumTokens(messages: SessionMessage[]): TokenUsage | undefined {
  const assistants = messages.filter((message) => message.info.role === "assistant" && message.info.tokens)
  if (assistants.length === 0) return undefined
  const total: TokenUsage = { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 }
  for (const { info } of assistants) {
    total.input += info.tokens?.input ?? 0
    total.output += info.tokens?.output ?? 0
    total.reasoning += info.tokens?.reasoning ?? 0
    total.cacheRead += info.tokens?.cache?.read ?? 0
    total.cacheWrite += info.tokens?.cache?.write ?? 0
  }
  return total
}

function sumCost(messages: SessionMessage[]): number | undefined {
  const costs = messages.flatMap((message) =>
    message.info.role === "assistant" && typeof message.info.cost === "number" ? [message.info.cost] : [],
  )
  return costs.length === 0 ? undefined : costs.reduce((sum, cost) => sum + cost, 0)
}

function opencodeFailed(error: unknown): TrialError {
  return { code: "OPENCODE_FAILED", message: `opencode failed the trial: ${(error as Error).message}` }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started)
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}
