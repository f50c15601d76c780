// The eval history: a JSON-lines file, one `HistoryEntry` per case x model per run, appended and
// never rewritten, so a later run can be compared with the previous one (compare.ts). Reading is
// forgiving: a line that is not an entry (a crash mid-write, a merge conflict, a hand edit) is
// skipped and the others are read.

import { appendFile, open, readFile } from "node:fs/promises"
import path from "node:path"
import { makeFolders } from "../../_make-folders.ts"
import type { ToolSnapshot } from "../../eval-cases/types.ts"
import type { EvalResult, EvalRun, HistoryEntry } from "../types.ts"

/** Failure lines one history entry keeps, and the characters each keeps. */
export const HISTORY_LIMITS = { failures: 5, failureLength: 300 } as const

/** Where the history is kept by default: `<project>/.opencode/evals/history.jsonl`. */
export function defaultHistoryFile(directory: string): string {
  return path.join(directory, ".opencode", "evals", "history.jsonl")
}

/** Every entry of the history file, oldest first; a missing file is an empty history, a bad line is skipped. */
export async function readHistory(file: string): Promise<HistoryEntry[]> {
  let text: string
  try {
    text = await readFile(file, "utf8")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return []
    throw error
  }
  const entries: HistoryEntry[] = []
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "") continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      continue
    }
    if (isHistoryEntry(value)) entries.push(value)
  }
  return entries
}

/**
 * Appends one line per result of `run` to the history file, creating its folder. Earlier lines
 * are never rewritten: the file is opened for appending, and when its last line was cut short (a
 * crash mid-write) the new lines start on a line of their own.
 */
export async function appendHistory(file: string, run: EvalRun): Promise<void> {
  if (run.results.length === 0) return
  makeFolders(path.dirname(file))
  const lines = run.results.map((result) => JSON.stringify(historyEntry(run, result)))
  const separator = (await endsWithNewline(file)) ? "" : "\n"
  await appendFile(file, `${separator}${lines.join("\n")}\n`, { encoding: "utf8", flag: "a" })
}

/** What the history keeps of one result: the counts, the tools as offered, and at most five distinct failure lines. */
export function historyEntry(run: EvalRun, result: EvalResult): HistoryEntry {
  const failures: string[] = []
  for (const trial of result.trials) {
    if (trial.grade.pass) continue
    const reason = trial.grade.reasons[0] ?? (trial.error ? `${trial.error.code}: ${trial.error.message}` : "failed")
    const line = cut(reason.replace(/\s*\n\s*/g, " "), HISTORY_LIMITS.failureLength)
    if (!failures.includes(line)) failures.push(line)
    if (failures.length === HISTORY_LIMITS.failures) break
  }
  return {
    runId: run.id,
    startedAt: run.startedAt,
    case: result.case,
    model: result.model,
    runs: result.runs,
    passed: result.passed,
    tools: result.tools.map((tool) => ({ id: tool.id, description: tool.description, parameters: tool.parameters })),
    failures,
  }
}

// --- internal ---

/** Whether the file ends with a newline; true for a missing or empty file (nothing to separate from). */
async function endsWithNewline(file: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>
  try {
    handle = await open(file, "r")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true
    throw error
  }
  try {
    const { size } = await handle.stat()
    if (size === 0) return true
    const last = Buffer.alloc(1)
    await handle.read(last, 0, 1, size - 1)
    return last[0] === 0x0a
  } finally {
    await handle.close()
  }
}

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`
}

/**
 * Whether `text`, the start of a file, is an eval history (or empty): a line of it an entry eval
 * wrote. So `--history` never appends to a file of something else's, and takes a history whose
 * first line cannot be read (a merge conflict's marker, a crash mid-write), as reading skips it.
 */
export function isHistoryText(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "")
  if (lines.length === 0) return true
  return lines.some((line) => {
    try {
      return isHistoryEntry(JSON.parse(line))
    } catch {
      return false
    }
  })
}

function isHistoryEntry(value: unknown): value is HistoryEntry {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false
  const entry = value as Record<string, unknown>
  return (
    typeof entry["runId"] === "string" &&
    typeof entry["startedAt"] === "string" &&
    typeof entry["case"] === "string" &&
    typeof entry["model"] === "string" &&
    isCount(entry["runs"]) &&
    isCount(entry["passed"]) &&
    Array.isArray(entry["tools"]) &&
    entry["tools"].every(isToolSnapshot) &&
    Array.isArray(entry["failures"]) &&
    entry["failures"].every((failure) => typeof failure === "string")
  )
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0
}

function isToolSnapshot(value: unknown): value is ToolSnapshot {
  if (typeof value !== "object" || value === null) return false
  const tool = value as Record<string, unknown>
  return typeof tool["id"] === "string" && typeof tool["description"] === "string"
}
