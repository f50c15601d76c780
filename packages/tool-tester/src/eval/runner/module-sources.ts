// The two modules `tool-tester eval` puts into opencode's world, as source text:
//
// - a tool wrapper, written over each tool file in the throw-away copy of a config folder: it
//   imports the original file by absolute path (so the original's own imports resolve as before)
//   and re-exports each of its tools with the same description and args, and an `execute` that
//   asks the runner's endpoint what to do with the call: answer it with a stated or stand-in
//   result, or run the original `execute` (when the case's `execute` allows it);
// - the guard plugin, added to the config's `plugin` list: its `tool.execute.before` reports every
//   call (built-ins too) to the endpoint, which counts them for the `maxCalls` bound and answers
//   whether the call may go on. A hook that throws stops the call: the tool does not run, the part
//   is an `error` and the model reads the message (docs/opencode-contract.md#execute-hooks).
//
// Both read the endpoint's URL from the server's environment (`TOOL_TESTER_EVAL_ENDPOINT`), which
// holds a random token: nothing else on the machine can answer them.

import { pathToFileURL } from "node:url"

/** The server's environment variable holding the runner endpoint's URL (with its token). */
export const endpointVariable = "TOOL_TESTER_EVAL_ENDPOINT"

/** What the wrapper sends to `<endpoint>/call`. */
export interface WrappedCall {
  tool: string
  sessionID: string
  callID: string
  args: unknown
}

/** What `<endpoint>/call` answers: run the original, or this text as the tool's output. */
export type WrappedCallAnswer = { execute: true } | { output: string }

/** What the guard plugin sends to `<endpoint>/before`. */
export interface GuardedCall {
  tool: string
  sessionID: string
  callID: string
}

/** What `<endpoint>/before` answers: go on, or the message the call fails with. */
export type GuardedCallAnswer = { allow: true } | { deny: string }

/** The wrapper of one tool file: `tools` are the export names and the tool id each gets. */
export function wrapperSource(original: string, tools: Array<{ exportName: string; id: string }>): string {
  const lines = [
    "// Written by tool-tester eval: the tools of the file below, their calls answered by the eval runner.",
    `import * as original from ${JSON.stringify(pathToFileURL(original).href)}`,
    `const endpoint = process.env[${JSON.stringify(endpointVariable)}]`,
    "function wrap(id, definition) {",
    "  return {",
    "    ...definition,",
    "    async execute(args, context) {",
    '      const response = await fetch(endpoint + "/call", {',
    '        method: "POST",',
    '        headers: { "content-type": "application/json" },',
    "        body: JSON.stringify({ tool: id, sessionID: context.sessionID, callID: context.callID, args }),",
    "      })",
    '      if (!response.ok) throw new Error("tool-tester eval: the runner did not answer this call (" + response.status + ")")',
    "      const answer = await response.json()",
    "      if (answer.execute === true) return definition.execute(args, context)",
    "      return answer.output",
    "    },",
    "  }",
    "}",
  ]
  const names: string[] = []
  tools.forEach((tool, index) => {
    lines.push(`const tool${index} = wrap(${JSON.stringify(tool.id)}, original[${JSON.stringify(tool.exportName)}])`)
    names.push(`tool${index} as ${JSON.stringify(tool.exportName)}`)
  })
  if (names.length > 0) lines.push(`export { ${names.join(", ")} }`)
  return `${lines.join("\n")}\n`
}

/** What `<endpoint>/definition` answers for a tool: what the running variant changes of it (nothing: `{}`). */
export interface DefinitionAnswer {
  description?: string
  args?: Record<string, string>
}

/**
 * The guard plugin module (JavaScript, no imports). With `variantIds`, its `tool.definition` hook
 * (run on every request, docs/opencode-contract.md#tool-definition-hook) asks the endpoint what the running
 * variant changes of those tools: the description, and the arguments' descriptions in a copy of the
 * JSON Schema (the one opencode keeps is never changed in place, so the next request starts from it).
 */
export function guardPluginSource(variantIds: readonly string[] = []): string {
  const definitionHook =
    variantIds.length === 0
      ? ""
      : `
  "tool.definition": async (input, output) => {
    if (!variantIds.includes(input.toolID)) return
    const response = await fetch(\`\${endpoint}/definition\`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tool: input.toolID }),
    })
    if (!response.ok) throw new Error(\`tool-tester eval: the runner did not answer this definition (\${response.status})\`)
    const answer = await response.json()
    if (typeof answer.description === "string") output.description = answer.description
    const schema = output.jsonSchema
    if (answer.args && schema && typeof schema === "object" && schema.properties) {
      const copy = structuredClone(schema)
      for (const [name, text] of Object.entries(answer.args)) {
        if (copy.properties[name] && typeof copy.properties[name] === "object") copy.properties[name].description = text
      }
      output.jsonSchema = copy
    }
  },`
  return `// Written by tool-tester eval: reports each tool call to the eval runner, which may refuse it.
const endpoint = process.env[${JSON.stringify(endpointVariable)}]
const variantIds = ${JSON.stringify(variantIds)}
export const ToolTesterEvalGuard = async () => ({${definitionHook}
  "tool.execute.before": async (input) => {
    const response = await fetch(\`\${endpoint}/before\`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tool: input.tool, sessionID: input.sessionID, callID: input.callID }),
    })
    if (!response.ok) throw new Error(\`tool-tester eval: the runner did not answer this call (\${response.status})\`)
    const answer = await response.json()
    if (typeof answer.deny === "string") throw new Error(answer.deny)
  },
})
`
}
