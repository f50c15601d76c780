// `run echo inptu=hi`: key=value pairs are names typed by hand, and opencode passes a call's
// arguments to a custom tool unchecked (docs/opencode-contract.md#raw-arguments), so a misspelt name
// reaches the tool as an extra key and the argument it meant is missing. Warned about on stderr,
// never refused: the call still runs as opencode would run it (--validate refuses).
import { closestMatch } from "../did-you-mean.ts"
import type { Diagnostic } from "../types.ts"

/** Warnings for pairs whose key the tool's JSON Schema does not list, and required arguments no pair gave. */
export function pairWarnings(tool: string, keys: readonly string[], schema: unknown): Diagnostic[] {
  if (typeof schema !== "object" || schema === null) return []
  const { properties, required, additionalProperties } = schema as Record<string, unknown>
  if (typeof properties !== "object" || properties === null) return []
  const names = Object.keys(properties)
  const given = new Set(keys)
  const warnings: Diagnostic[] = []
  // A schema that takes any other key (z.object().passthrough(), a record) lists no typo.
  const closed = additionalProperties === undefined || additionalProperties === false
  for (const key of closed ? given : []) {
    if (names.includes(key)) continue
    const close = closestMatch(key, names)
    const takes = names.length === 0 ? "it takes none" : `its arguments: ${names.join(", ")}`
    warnings.push({
      code: "UNKNOWN_ARGUMENT",
      severity: "warning",
      message: `${key}=: ${tool} has no argument ${key} (${takes}), so opencode passes it to the tool as an extra key${close ? `; did you mean ${close}?` : ""}`,
      data: { tool, argument: key },
    })
  }
  for (const name of Array.isArray(required) ? required.map(String) : []) {
    if (given.has(name)) continue
    warnings.push({
      code: "MISSING_ARGUMENT",
      severity: "warning",
      message: `${tool}'s schema requires ${name}, and no ${name}=VALUE pair gives it: opencode does not check, so the tool gets no ${name} (add ${name}=VALUE, or --validate to refuse the call)`,
      data: { tool, argument: name },
    })
  }
  return warnings
}
