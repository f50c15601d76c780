// Which call's result a page shows, beside which tool. Several pages can be open on one `dev`: as
// in the MCP Inspector, where each tab is a client of its own, a page shows the results of the
// calls it asked for, and another page's calls only join its history (a click on one shows it
// here, with its tool and arguments back in the form). A save's re-run takes the place of the call
// it runs again wherever that call is shown. Each result is kept by the tool that was called, and
// shown only while that tool is open: never beside another tool.
import { PAGE } from "./api.ts"
import type { HistoryEntry } from "./types.ts"

/** By tool id: the call shown beside it, and the call that one is (or runs again, for a save's re-run). */
export type ShownResults = Readonly<Record<string, { id: number; of: number }>>

/** `entry` shown beside its tool, as a click on it (or a fresh page's last call) shows it. */
export function showing(shown: ShownResults, entry: HistoryEntry): ShownResults {
  return { ...shown, [entry.request.name]: { id: entry.id, of: entry.reruns ?? entry.id } }
}

/** What is shown once `entry` (a call that started or ended) arrived: it, when it is this page's to show. */
export function shownAfter(shown: ShownResults, entry: HistoryEntry): ShownResults {
  const now = shown[entry.request.name]
  const asked = entry.page === PAGE
  const rerun = entry.reruns !== undefined && now?.of === entry.reruns
  return asked || rerun ? showing(shown, entry) : shown
}

/** What is still shown once the history is `history` (a reconnect): the calls it keeps. */
export function shownIn(shown: ShownResults, history: HistoryEntry[]): ShownResults {
  const kept = new Set(history.map((entry) => entry.id))
  return Object.fromEntries(Object.entries(shown).filter(([, call]) => kept.has(call.id)))
}
