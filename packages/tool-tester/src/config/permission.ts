import os from "node:os"

export type PermissionAction = "allow" | "deny" | "ask"

/** One rule as opencode stores it: permission name (wildcard), pattern (wildcard), action. */
export type PermissionRule = { permission: string; action: PermissionAction; pattern: string }

export type PermissionConfig = PermissionAction | Record<string, PermissionAction | Record<string, PermissionAction>>

/**
 * The rules every agent starts with before the user's config (opencode 1.18, build agent): allow
 * everything, ask before leaving the workspace, except the folder truncated outputs are saved to.
 */
export function defaultRules(toolOutputGlob: string): PermissionRule[] {
  return [
    { permission: "*", action: "allow", pattern: "*" },
    { permission: "doom_loop", action: "ask", pattern: "*" },
    { permission: "external_directory", action: "ask", pattern: "*" },
    { permission: "external_directory", action: "allow", pattern: toolOutputGlob },
  ]
}

/** Rules from an opencode.json `permission` value, in key order, with `~` and `$HOME` expanded in patterns. */
export function rulesFromConfig(config: PermissionConfig | undefined, home = os.homedir()): PermissionRule[] {
  if (config === undefined) return []
  if (typeof config === "string") return [{ permission: "*", action: config, pattern: "*" }]
  const rules: PermissionRule[] = []
  for (const [permission, value] of Object.entries(config)) {
    if (typeof value === "string") {
      rules.push({ permission, action: value, pattern: "*" })
      continue
    }
    for (const [pattern, action] of Object.entries(value)) {
      rules.push({ permission, action, pattern: expandHome(pattern, home) })
    }
  }
  return rules
}

/** opencode's wildcard: `*` is any text, `?` one character, the rest literal; a trailing ` *` may match nothing. */
export function wildcardMatch(subject: string, pattern: string): boolean {
  return wildcardRegExp(pattern).test(subject.replaceAll("\\", "/"))
}

/** The last rule matching both the permission and the pattern wins; no match means `ask`. */
export function evaluate(permission: string, pattern: string, rules: readonly PermissionRule[]): PermissionRule {
  for (let index = rules.length - 1; index >= 0; index--) {
    const rule = rules[index]!
    if (wildcardMatch(permission, rule.permission) && wildcardMatch(pattern, rule.pattern)) return rule
  }
  return { permission, action: "ask", pattern: "*" }
}

/** Whether opencode leaves a tool out of the request: its last matching rule is a deny for every pattern. */
export function isToolDisabled(toolId: string, rules: readonly PermissionRule[]): boolean {
  const permission = ["edit", "write", "apply_patch"].includes(toolId) ? "edit" : toolId
  for (let index = rules.length - 1; index >= 0; index--) {
    const rule = rules[index]!
    if (wildcardMatch(permission, rule.permission)) return rule.pattern === "*" && rule.action === "deny"
  }
  return false
}

/**
 * Whether the agent may use `task`, which picks the truncation hint
 * (docs/opencode-contract.md#truncation-hint).
 */
export function hasTaskTool(rules: readonly PermissionRule[]): boolean {
  return evaluate("task", "*", rules).action !== "deny"
}

/** The text of opencode's PermissionDeniedError for a denied `ctx.ask()`. */
export function deniedMessage(permission: string, rules: readonly PermissionRule[]): string {
  const relevant = rules.filter((rule) => wildcardMatch(permission, rule.permission))
  return `The user has specified a rule which prevents you from using this specific tool call. Here are some of the relevant rules ${JSON.stringify(relevant)}`
}

// --- internal ---

/** Patterns are few and tested against every tool and call: each is compiled once. */
const compiled = new Map<string, RegExp>()

function wildcardRegExp(pattern: string): RegExp {
  let regExp = compiled.get(pattern)
  if (regExp) return regExp
  const normalizedPattern = pattern.replaceAll("\\", "/")
  let source = ""
  for (const character of normalizedPattern) {
    if (character === "*") source += ".*"
    else if (character === "?") source += "."
    else source += character.replace(/[.+^${}()|[\]\\/]/g, "\\$&")
  }
  if (normalizedPattern.endsWith(" *")) source = `${source.slice(0, -" .*".length)}( .*)?`
  regExp = new RegExp(`^${source}$`, "s")
  compiled.set(pattern, regExp)
  return regExp
}

function expandHome(pattern: string, home: string): string {
  if (pattern === "~" || pattern === "$HOME") return home
  if (pattern.startsWith("~/")) return home + pattern.slice(1)
  if (pattern.startsWith("$HOME/")) return home + pattern.slice("$HOME".length)
  return pattern
}
