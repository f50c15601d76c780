// opencode's ids for the calls of an API that sends none (Google's: `@ai-sdk/google` makes one up
// for each call, and opencode's history gives none back). Each main request is one step of
// opencode's session, which `opencode run --format json` opens with a `step_start` event: the
// step's message holds the tool parts of the calls that request's answer made, created in call
// order (their part ids ascend). Each served call of the step takes the first part whose tool and
// input are its own; then each left takes the first left whose tool is (a part opencode rerouted
// to `invalid` names the tool called). A call opencode reported no part for (it was still
// running) keeps the mock's name.
import type { CapturedRequest, ServedCall } from "./mock-model.ts"

/** opencode's call id for each served call of an id-less API it reported a tool part for. */
export function idlessCallIds(
  servedCalls: readonly ServedCall[],
  requests: readonly CapturedRequest[],
  events: readonly unknown[],
  isIdless: (served: ServedCall) => boolean,
): Map<ServedCall, string> {
  const mains = requests.flatMap((request, index) => (request.kind === "main" ? [index] : []))
  const steps = stepMessages(events)
  const parts = toolPartsByMessage(events)
  const ids = new Map<ServedCall, string>()
  const byRequest = new Map<number, ServedCall[]>()
  for (const served of servedCalls.filter(isIdless))
    byRequest.set(served.requestIndex, [...(byRequest.get(served.requestIndex) ?? []), served])
  for (const [requestIndex, calls] of byRequest) {
    const message = steps[mains.indexOf(requestIndex)]
    const left = [...(message === undefined ? [] : (parts.get(message) ?? []))]
    const take = (served: ServedCall, fits: (part: ToolPart) => boolean) => {
      const index = left.findIndex((part) => isItsCall(part, served) && fits(part))
      if (index === -1 || ids.has(served)) return
      ids.set(served, left[index]!.callID)
      left.splice(index, 1)
    }
    for (const served of calls) take(served, (part) => sameInput(part, served))
    for (const served of calls) take(served, () => true)
  }
  return ids
}

// --- internal ---

type ToolPart = { id: string; callID: string; messageID: string; tool: string; input: unknown }

/** The message of each step, in the order the steps started. */
function stepMessages(events: readonly unknown[]): string[] {
  const messages: string[] = []
  for (const event of events) {
    const part = partOf(event)
    if (part?.type === "step-start" && typeof part.messageID === "string") messages.push(part.messageID)
  }
  return messages
}

/** Each message's tool parts in the order opencode created them (the last event of each part). */
function toolPartsByMessage(events: readonly unknown[]): Map<string, ToolPart[]> {
  const byId = new Map<string, ToolPart>()
  for (const event of events) {
    const part = partOf(event)
    if (part?.type !== "tool") continue
    const { id, callID, messageID, tool } = part
    if (typeof id !== "string" || typeof callID !== "string" || typeof messageID !== "string") continue
    const state = part.state as { input?: unknown } | undefined
    byId.set(id, { id, callID, messageID, tool: String(tool), input: state?.input })
  }
  const byMessage = new Map<string, ToolPart[]>()
  for (const part of [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    byMessage.set(part.messageID, [...(byMessage.get(part.messageID) ?? []), part])
  }
  return byMessage
}

/** The part ran the tool called (case repaired), or `invalid` in its place. */
function isItsCall(part: ToolPart, served: ServedCall): boolean {
  const called = served.name.toLowerCase()
  if (part.tool === "invalid") {
    const tool = (part.input as { tool?: unknown } | undefined)?.tool
    return typeof tool === "string" && tool.toLowerCase() === called
  }
  return part.tool.toLowerCase() === called
}

function sameInput(part: ToolPart, served: ServedCall): boolean {
  return part.tool === "invalid" || JSON.stringify(part.input) === served.arguments
}

function partOf(event: unknown): Record<string, unknown> | undefined {
  const part = (event as { part?: unknown } | null)?.part
  return typeof part === "object" && part !== null ? (part as Record<string, unknown>) : undefined
}
