// The page talks only to the server that served it: every URL is relative to the page, which
// lives under /<token>/, so the token goes along on every request.
import type { CallRequest, HistoryEntry, ProjectView } from "./types.ts"

async function post<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? "{}" : JSON.stringify(body),
  })
  // A refusal is plain text (the guard's 403, such as this page's token after dev restarted on its port).
  const text = await response.text()
  let value: (T & { error?: { message: string } }) | undefined
  try {
    value = JSON.parse(text) as T & { error?: { message: string } }
  } catch {
    value = undefined
  }
  if (!response.ok || value === undefined)
    throw new Error(value?.error?.message ?? (text.trim() || `${response.status} ${response.statusText}`))
  return value
}

/**
 * This page, among the pages open on the same `dev`: it sends its id with the calls it asks for,
 * and shows their results; another page's calls are only listed in its history (as the MCP
 * Inspector's tabs, each its own client, show only their own results). Made when the page opens.
 */
export const PAGE = Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) =>
  byte.toString(16).padStart(2, "0"),
).join("")

export const api = {
  call: (request: CallRequest) => post<HistoryEntry>("./api/call", { ...request, page: PAGE }),
  replay: (id: number) => post<HistoryEntry>(`./api/history/${id}/replay`, { page: PAGE }),
  cancel: (id: number) => post<HistoryEntry>(`./api/history/${id}/cancel`),
  reload: () => post<ProjectView | null>("./api/reload"),
  outputUrl: (id: number) => `./api/history/${id}/output`,
}

export type ServerEvent =
  | { type: "hello"; view: ProjectView | null; history: HistoryEntry[] }
  | { type: "project"; view: ProjectView }
  | { type: "reloading"; files: string[] }
  | { type: "call"; entry: HistoryEntry }

/** Every load and call, as the server sends them; reconnects by itself (EventSource does). */
export function listen(onEvent: (event: ServerEvent) => void, onState: (connected: boolean) => void): () => void {
  // With this page's id: the page counts as open while it listens, and a save re-runs its last call.
  const source = new EventSource(`./api/events?page=${PAGE}`)
  for (const type of ["hello", "project", "reloading", "call"] as const) {
    source.addEventListener(type, (message) => {
      const data = JSON.parse((message as MessageEvent<string>).data) as Record<string, unknown>
      onEvent({ ...data, type } as ServerEvent)
    })
  }
  source.onopen = () => onState(true)
  source.onerror = () => onState(false)
  return () => source.close()
}
