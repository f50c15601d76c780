import path from "node:path"
import type { PermissionAction, PermissionConfig, PermissionRule } from "../config/permission.ts"
import { defaultRules, rulesFromConfig } from "../config/permission.ts"

/** Permission overrides given in code (or on the command line); they come after the config's rules. */
export type PermissionOverrides = {
  allow?: readonly string[]
  deny?: readonly string[]
  /** What an `ask` rule answers, since nobody is there to click: default `allow`. */
  ask?: "allow" | "deny"
}

/** The agent's rules as opencode evaluates them: defaults, the merged config's `permission`, then overrides. */
export function agentRules(options: {
  config: PermissionConfig | undefined
  overrides?: PermissionOverrides | undefined
  dataDirectory: string
  home?: string
}): PermissionRule[] {
  const toolOutputGlob = path.join(options.dataDirectory, "tool-output", "*")
  const rules = [...defaultRules(toolOutputGlob), ...rulesFromConfig(options.config, options.home)]
  const override = (names: readonly string[] | undefined, action: PermissionAction) =>
    (names ?? []).map((permission) => ({ permission, action, pattern: "*" }))
  rules.push(...override(options.overrides?.allow, "allow"), ...override(options.overrides?.deny, "deny"))
  // Every agent ends with an allow for reading truncated outputs, unless it denies exactly that
  // (docs/opencode-contract.md#reading-saved-output).
  const deniesToolOutput = rules.some(
    (rule) => rule.permission === "external_directory" && rule.pattern === toolOutputGlob && rule.action === "deny",
  )
  if (!deniesToolOutput) rules.push({ permission: "external_directory", action: "allow", pattern: toolOutputGlob })
  return rules
}
