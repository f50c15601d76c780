import type { Finding } from "./finding.ts"

/**
 * Tool names the providers' APIs reject. opencode sends ids as they are (file name, `_export`,
 * plugin key), so a rejected name fails every request that offers it:
 * - OpenAI and Anthropic: only letters, digits, `_` and `-`, 1 to 64 characters;
 * - Gemini: starts with a letter or `_`, then letters, digits, `_`, `.`, `:` or `-`, at most 64.
 */
export function toolNameFindings(tool: { id: string; file: string; source: "file" | "plugin" }): Finding[] {
  const problems: string[] = []
  const outside = [...new Set(tool.id.replace(/[A-Za-z0-9_-]/g, ""))]
  if (outside.length > 0)
    problems.push(
      `${outside.map((character) => JSON.stringify(character)).join(", ")}, which OpenAI and Anthropic reject`,
    )
  if (tool.id.length > 64) problems.push(`${tool.id.length} characters, over the 64 every provider allows`)
  if (tool.id.length === 0) problems.push("no characters")
  if (/^[^A-Za-z_]/.test(tool.id)) problems.push("a first character Gemini rejects (it needs a letter or _)")
  if (problems.length === 0) return []
  const suggestion =
    tool.id
      .replace(/[^A-Za-z0-9_-]/g, "_")
      .replace(/^([^A-Za-z_])/, "_$1")
      .slice(0, 64) || "my_tool"
  const rename =
    tool.source === "plugin"
      ? `rename the key in the plugin's tool hook to ${suggestion}`
      : `rename the file (or export) so the id is ${suggestion}`
  return [
    {
      code: "TOOL_NAME_REJECTED",
      severity: "warning",
      file: tool.file,
      message: `tool name ${JSON.stringify(tool.id)} has ${problems.join(" and ")}: ${rename}`,
      data: { tool: tool.id },
    },
  ]
}
