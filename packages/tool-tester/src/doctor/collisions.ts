import path from "node:path"
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
        message: `tool ${id} replaces opencode's built-in ${id} for every call: rename it unless you mean to replace the built-in`,
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
  return findings
}
