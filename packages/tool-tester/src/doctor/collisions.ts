import path from "node:path"
import { BUILTIN_TOOL_IDS, modelFilterNote } from "../pipeline/builtins.ts"
import type { LoadedTool } from "../types.ts"
import { displayPath } from "./_paths.ts"
import type { Finding } from "./finding.ts"

/**
 * Tools that share an id. opencode keeps only the last definition
 * (docs/opencode-contract.md#collisions): a later folder beats an earlier one, a plugin beats a
 * file, and within one folder the order is whatever the glob returns, so either may win. A custom
 * tool named like a built-in replaces the built-in.
 */
export function collisionFindings(tools: readonly LoadedTool[], options: { cwd: string }): Finding[] {
  const findings: Finding[] = []
  const byId = new Map<string, LoadedTool[]>()
  for (const tool of tools) byId.set(tool.id, [...(byId.get(tool.id) ?? []), tool])
  for (const [id, definitions] of byId) {
    const winner = definitions.at(-1)!
    const first = definitions[0]!
    if (first.overrides === "builtin") {
      findings.push({
        code: "BUILTIN_OVERRIDE",
        severity: "warning",
        file: first.file,
        message: `tool ${id} ${replaces(id)}: rename it unless you mean to replace the built-in`,
        data: { tool: id },
      })
    }
    if (definitions.length < 2) continue
    const where = (tool: LoadedTool) =>
      `${displayPath(options.cwd, tool.file)}${tool.export && tool.export !== "default" ? ` (export ${tool.export})` : ""}`
    const sameFolder = definitions.some(
      (tool) =>
        tool !== winner &&
        tool.source === "file" &&
        winner.source === "file" &&
        path.dirname(tool.file) === path.dirname(winner.file),
    )
    findings.push({
      code: "TOOL_COLLISION",
      severity: "warning",
      file: winner.file,
      message: `tool id ${id} is defined ${definitions.length} times (${definitions.map(where).join(", ")}); opencode keeps only ${sameFolder ? "one, and within one folder its order is not fixed, so either may win" : `the last, ${where(winner)}`}: rename the others`,
      data: { tool: id, files: definitions.map((tool) => tool.file) },
    })
  }
  findings.push(...caseFindings(tools))
  return findings
}

// --- internal ---

/** What a custom tool named like built-in `id` does: opencode's per-model filter hides it wherever it hides the built-in. */
function replaces(id: string): string {
  const note = modelFilterNote(id)
  return `replaces opencode's built-in ${id}${note === undefined ? " for every call" : `, and like it is ${note}`}`
}

/**
 * Ids that differ only in case (`BASH` beside the built-in `bash`, `Weather` beside `weather`):
 * opencode offers each as a tool of its own, and repairs a call in any other case (`Bash`) to the
 * lowercase id only (pipeline/repair-call.ts), so the other is reachable by its exact name alone.
 */
function caseFindings(tools: readonly LoadedTool[]): Finding[] {
  const byLower = new Map<string, Set<string>>()
  const add = (id: string) => byLower.set(id.toLowerCase(), (byLower.get(id.toLowerCase()) ?? new Set()).add(id))
  for (const id of BUILTIN_TOOL_IDS) add(id)
  for (const tool of tools) add(tool.id)
  const findings: Finding[] = []
  for (const [lower, ids] of byLower) {
    if (ids.size < 2) continue
    const custom = tools.filter((tool) => ids.has(tool.id) && tool.id !== lower)
    const first = custom[0] ?? tools.find((tool) => ids.has(tool.id))
    if (first === undefined) continue
    const names = [...ids].sort()
    const builtin = BUILTIN_TOOL_IDS.includes(lower) ? ` (opencode's built-in ${lower})` : ""
    findings.push({
      code: "TOOL_CASE_CLASH",
      severity: "warning",
      file: first.file,
      message: `tool ids ${names.join(" and ")} differ only in case: opencode offers ${names.length === 2 ? "both" : "each"}, and a call in another case (such as ${variant(lower, ids)}) runs ${ids.has(lower) ? `${lower}${builtin}` : "none of them (it goes to the invalid tool)"}: rename ${names.length === 2 ? "one" : "all but one"}`,
      data: { tools: names },
    })
  }
  return findings
}

/** A spelling of `lower` that is none of `ids`: itself, its first letter upper case, all of it, or its last. */
function variant(lower: string, ids: Set<string>): string {
  const spellings = [
    lower,
    lower.charAt(0).toUpperCase() + lower.slice(1),
    lower.toUpperCase(),
    lower.slice(0, -1) + lower.slice(-1).toUpperCase(),
  ]
  return spellings.find((spelling) => !ids.has(spelling)) ?? spellings[1]!
}
