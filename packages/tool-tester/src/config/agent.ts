import type { OpencodeConfig } from "./opencode-config.ts"

// Which agent a session runs for, which is the `ctx.agent` a tool gets, as opencode 1.18.34 chooses
// it (docs/opencode-contract.md#agent): `--agent NAME` when NAME is a primary agent, else the
// config's `default_agent` (plugins' `config` hooks may set it), else `build`.

type AgentMode = "primary" | "subagent" | "all"
type AgentInfo = { mode: AgentMode; hidden: boolean }

/** opencode 1.18's own agents (`app.agents()` lists them; docs/opencode-contract.md#agent). */
const BUILTIN_AGENTS: Record<string, AgentInfo> = {
  build: { mode: "primary", hidden: false },
  plan: { mode: "primary", hidden: false },
  general: { mode: "subagent", hidden: false },
  explore: { mode: "subagent", hidden: false },
  compaction: { mode: "primary", hidden: true },
  title: { mode: "primary", hidden: true },
  summary: { mode: "primary", hidden: true },
}

export type AgentChoice = { success: true; agent: string; warning?: string } | { success: false; message: string }

/**
 * The agent a run prompts: `requested` (`--agent`, the library's `agent` option) when it names a
 * primary agent, else the default agent, with opencode's warning for the fallback. Fails when the
 * default agent is needed and the config names one opencode refuses.
 */
export function chooseAgent(config: OpencodeConfig, requested?: string): AgentChoice {
  const agents = agentsOf(config)
  let warning: string | undefined
  if (requested !== undefined) {
    const agent = agents.get(requested)
    if (agent === undefined) warning = `agent "${requested}" not found. Falling back to default agent`
    else if (agent.mode === "subagent")
      warning = `agent "${requested}" is a subagent, not a primary agent. Falling back to default agent`
    else return { success: true, agent: requested }
  }
  const fallback = defaultAgent(config, agents)
  if (!fallback.success) return fallback
  return warning === undefined ? fallback : { ...fallback, warning }
}

/** What opencode says when `default_agent` names an agent it refuses, else undefined. */
export function defaultAgentProblem(config: OpencodeConfig): string | undefined {
  const chosen = defaultAgent(config, agentsOf(config))
  return chosen.success ? undefined : chosen.message
}

// --- internal ---

function defaultAgent(config: OpencodeConfig, agents: Map<string, AgentInfo>): AgentChoice {
  const name = config["default_agent"]
  if (typeof name === "string") {
    const agent = agents.get(name)
    if (agent === undefined) return refused(`default agent "${name}" not found`)
    if (agent.mode === "subagent") return refused(`default agent "${name}" is a subagent`)
    if (agent.hidden) return refused(`default agent "${name}" is hidden`)
    return { success: true, agent: name }
  }
  for (const [candidate, agent] of agents) {
    if (agent.mode !== "subagent" && !agent.hidden) return { success: true, agent: candidate }
  }
  return refused("no primary visible agent found")
}

function refused(reason: string): AgentChoice {
  return {
    success: false,
    message: `opencode fails every run with "${reason}": set default_agent in opencode.json to a primary agent (build, plan, or one of yours with "mode": "primary")`,
  }
}

/** The built-in agents, then the config's, less the disabled ones. */
function agentsOf(config: OpencodeConfig): Map<string, AgentInfo> {
  const agents = new Map(Object.entries(BUILTIN_AGENTS))
  const configured = config["agent"]
  if (typeof configured !== "object" || configured === null) return agents
  for (const [name, value] of Object.entries(configured as Record<string, unknown>)) {
    const entry = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>
    if (entry["disable"] === true) {
      agents.delete(name)
      continue
    }
    const known = agents.get(name)
    const mode = entry["mode"]
    agents.set(name, {
      mode: mode === "primary" || mode === "subagent" || mode === "all" ? mode : (known?.mode ?? "all"),
      hidden: typeof entry["hidden"] === "boolean" ? entry["hidden"] : (known?.hidden ?? false),
    })
  }
  return agents
}
