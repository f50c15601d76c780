// What the model reads from one call, as text a snapshot can hold: the tool that ran, the status
// opencode records, and the output with the run-specific parts (the saved full output's path, the
// temp folder, home, the working folder) replaced by placeholders. Durations are left out. A call
// rerouted to `invalid` lists every tool opencode offers: that list is a placeholder too, or adding
// any tool to the project would break the snapshot of a call that has nothing to do with it.
import { escapeRegExp } from "../_escape-regexp.ts"
import os from "node:os"
import { ToolTesterError } from "../errors.ts"
import type { RunResult } from "../types.ts"

export function modelView(result: RunResult): string {
  if (!isRunResult(result))
    throw new ToolTesterError(
      "USAGE",
      "modelView() expects what runTool() or callTool() resolved to: await the call first",
      { data: { option: "result" } },
    )
  const called =
    result.name === result.id ? "" : ` (called as ${result.name}${result.rerouted ? ", rerouted" : ", name repaired"})`
  return [
    `tool: ${result.id}${called}`,
    `status: ${result.status}`,
    "output:",
    result.rerouted ? withoutToolList(normalizePaths(result.output, result)) : normalizePaths(result.output, result),
  ].join("\n")
}

export function isRunResult(value: unknown): value is RunResult {
  if (typeof value !== "object" || value === null) return false
  const record = value as Record<string, unknown>
  return (
    typeof record["output"] === "string" && typeof record["id"] === "string" && typeof record["status"] === "string"
  )
}

// --- internal ---

/** `Available tools: bash, edit, ...` (docs/opencode-contract.md#repair) as `Available tools: <offered tools>`. */
function withoutToolList(text: string): string {
  return text.replace(
    /(Model tried to call unavailable tool '[^'\n]*'\. Available tools: )[^\n]*\.$/m,
    "$1<offered tools>.",
  )
}

function normalizePaths(text: string, result: RunResult): string {
  const replacements: Array<[string, string]> = []
  if (result.outputPath) replacements.push([result.outputPath, "<outputPath>"])
  replacements.push([process.cwd(), "<cwd>"], [os.homedir(), "<home>"], [os.tmpdir(), "<tmp>"])
  let normalized = text
  // Longest first, so a path inside another is replaced as the longer one; only a whole path, or
  // one followed by more of it: `/work/app2` is not `<cwd>2` when the working folder is /work/app.
  for (const [path, placeholder] of replacements.sort((a, b) => b[0].length - a[0].length)) {
    if (path.length > 1)
      normalized = normalized.replace(new RegExp(`${escapeRegExp(path)}(?![\\w-]|\\.\\w)`, "g"), placeholder)
  }
  return normalized
}
