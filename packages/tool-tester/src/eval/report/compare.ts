// Each result next to the previous run of the same case and model in the history, with what
// changed in the tools the case names: "weather: 10/10 -> 6/10 since the description changed".

import type { ToolSnapshot } from "../../eval-cases/types.ts"
import type { EvalResult, HistoryEntry, ResultChange } from "../types.ts"
import { lineDiff } from "./_line-diff.ts"
import { changeSignificance } from "./statistics.ts"
import { resultKey } from "./summarize.ts"

/**
 * For each result with an earlier entry in `history` (same case and model; the latest by
 * `startedAt`, the last in the file among equals), that entry and the tools whose description or
 * parameters differ between the two, each with a line diff. Keyed by `resultKey(case, model)`
 * (`${case}\u0000${model}`). Entries of `options.runId` (the run being reported, when its lines
 * were already appended) are not "previous".
 */
export function compareWithPrevious(
  results: EvalResult[],
  history: HistoryEntry[],
  options: { runId?: string } = {},
): Map<string, ResultChange> {
  const latest = new Map<string, { entry: HistoryEntry; time: number }>()
  for (const entry of history) {
    if (options.runId !== undefined && entry.runId === options.runId) continue
    const key = resultKey(entry.case, entry.model)
    const time = Date.parse(entry.startedAt)
    const known = latest.get(key)
    // Unparsable times count as oldest; equal times: the later line wins (lines are appended in order).
    const sortable = Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time
    if (!known || sortable >= known.time) latest.set(key, { entry, time: sortable })
  }
  const changes = new Map<string, ResultChange>()
  for (const result of results) {
    const key = resultKey(result.case, result.model)
    const previous = latest.get(key)?.entry
    if (!previous) continue
    changes.set(key, {
      previous,
      toolChanges: toolChanges(previous.tools, result.tools),
      significance: changeSignificance(previous, result),
    })
  }
  return changes
}

/** The tools offered both times whose description or parameters differ, with a line diff of each part that changed. */
function toolChanges(before: ToolSnapshot[], after: ToolSnapshot[]): Array<{ id: string; diff: string }> {
  const changes: Array<{ id: string; diff: string }> = []
  for (const tool of after) {
    const old = before.find((candidate) => candidate.id === tool.id)
    if (!old) continue
    const lines: string[] = []
    if (old.description !== tool.description) lines.push("description", ...lineDiff(old.description, tool.description))
    const oldSchema = schemaText(old.parameters)
    const newSchema = schemaText(tool.parameters)
    if (oldSchema !== newSchema) lines.push("parameters", ...lineDiff(oldSchema, newSchema))
    if (lines.length > 0) changes.push({ id: tool.id, diff: lines.join("\n") })
  }
  return changes
}

/** Which parts of a tool a diff from `toolChanges` covers. */
export function changedParts(diff: string): Array<"description" | "parameters"> {
  const parts: Array<"description" | "parameters"> = []
  for (const line of diff.split("\n")) if (line === "description" || line === "parameters") parts.push(line)
  return parts
}

// --- internal ---

function schemaText(parameters: unknown): string {
  return JSON.stringify(parameters ?? null, null, 2) ?? "null"
}
