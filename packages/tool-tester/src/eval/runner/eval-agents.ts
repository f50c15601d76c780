// The agents the trials prompt, checked against the ones opencode has for the project
// (`GET /agent`): its server fails every prompt to an agent it does not have with "Unexpected
// server error", and runs a prompt to a hidden agent (its own `title`, `summary` and `compaction`,
// or one of the user's with `"hidden": true`) as if a user had picked it, which no user can. An
// unknown or hidden `--agent` throws USAGE; a case naming one is a problem and is left out. The
// messages list the agents a user can pick: the primary agents and the subagents, not the hidden.

import { didYouMean } from "../../did-you-mean.ts"
import { ToolTesterError } from "../../errors.ts"
import type { EvalCase } from "../../eval-cases/types.ts"
import type { ServerApi } from "./server-api.ts"

/** An agent as `GET /agent` lists it (opencode 1.18: `mode` primary or subagent, `hidden` only when true). */
interface AgentInfo {
  name: string
  mode?: string
  hidden?: boolean
}

export async function evalAgents(
  api: Pick<ServerApi, "get">,
  options: { agent?: string | undefined; cases: EvalCase[] },
): Promise<{ cases: EvalCase[]; problems: Array<{ code: string; message: string }> }> {
  const named = [options.agent, ...options.cases.map((evalCase) => evalCase.agent)]
  if (named.every((agent) => agent === undefined)) return { cases: options.cases, problems: [] }
  const agents = await api.get<AgentInfo[]>("/agent")
  const pickable = agents.filter((agent) => agent.hidden !== true).map((agent) => agent.name)
  const refusal = (name: string): string | undefined => {
    const agent = agents.find((candidate) => candidate.name === name)
    const choices = `agents you can pick: ${pickable.join(", ")}`
    if (agent === undefined)
      return `opencode has no agent "${name}" in this project${didYouMean(name, pickable)} (${choices})`
    if (agent.hidden === true)
      return `opencode's agent "${name}" is hidden: opencode runs it itself, and no user can pick it (${choices})`
    return undefined
  }
  const refused = options.agent === undefined ? undefined : refusal(options.agent)
  if (refused !== undefined) {
    throw new ToolTesterError("USAGE", `--agent ${options.agent}: ${refused}`, {
      data: { option: "agent", agents: pickable },
    })
  }
  const cases: EvalCase[] = []
  const problems: Array<{ code: string; message: string }> = []
  for (const evalCase of options.cases) {
    const problem = evalCase.agent === undefined ? undefined : refusal(evalCase.agent)
    if (problem === undefined) {
      cases.push(evalCase)
      continue
    }
    const where =
      evalCase.source === undefined
        ? ""
        : `${evalCase.source.file}${evalCase.source.line === undefined ? "" : `:${evalCase.source.line}`}: `
    problems.push({
      code: "EVAL_CASE_INVALID",
      message: `${where}case "${evalCase.name}": ${problem}; the case is left out`,
    })
  }
  return { cases, problems }
}
