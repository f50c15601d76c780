// What ended a trial, from what opencode recorded: the `error` of an assistant message (a
// provider's answer that opencode does not retry), or the message of a retry opencode announced in
// the session's status (a 429, an unreachable provider, an overloaded one: opencode retries those
// with growing pauses, so the runner gives up after a few and records the last message).

import type { TrialError } from "../../eval-cases/types.ts"
import { count } from "../../_count.ts"

/** An assistant message's `info.error` as opencode records it. */
export interface MessageError {
  name?: string
  data?: { message?: string; statusCode?: number; responseBody?: string; providerID?: string }
}

/** The trial error for an assistant message's error, with the provider's own message. */
export function messageTrialError(error: MessageError): TrialError {
  const message = providerMessage(error)
  const status = error.data?.statusCode
  if (error.name === "ProviderAuthError" || status === 401 || status === 403 || missingKey.test(message)) {
    return { code: "AUTH_ERROR", message }
  }
  if (status === 429) return { code: "RATE_LIMITED", message }
  if (status === undefined && unreachable.test(message)) return { code: "PROVIDER_UNREACHABLE", message }
  if (error.name === "MessageAbortedError")
    return { code: "OPENCODE_FAILED", message: `opencode aborted the turn: ${message}` }
  return { code: "PROVIDER_ERROR", message }
}

/** The trial error for the message of a retry opencode announced (it carries no status code). */
export function retryTrialError(message: string, attempts: number): TrialError {
  const detail = `${message} (opencode retried ${count(attempts, "time")}; tool-tester eval stopped it)`
  if (unreachable.test(message)) return { code: "PROVIDER_UNREACHABLE", message: detail }
  if (rateLimited.test(message)) return { code: "RATE_LIMITED", message: detail }
  if (missingKey.test(message)) return { code: "AUTH_ERROR", message: detail }
  return { code: "PROVIDER_ERROR", message: detail }
}

// --- internal ---

const unreachable = /cannot connect|unable to connect|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|fetch failed|network/i
const rateLimited = /rate.?limit|too many requests|\b429\b|quota|throttl/i
const missingKey = /api key|apikey|unauthori[sz]ed|authentication|invalid.*key|\b401\b/i

function providerMessage(error: MessageError): string {
  const message = error.data?.message?.trim()
  const status = error.data?.statusCode === undefined ? "" : ` (HTTP ${error.data.statusCode})`
  if (message) return `${message}${status}`
  const body = error.data?.responseBody?.trim()
  if (body) return `${body.slice(0, 500)}${status}`
  return `${error.name ?? "an error"} with no message${status}`
}
