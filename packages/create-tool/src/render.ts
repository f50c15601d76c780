// Turns a template file into the file to write. Templates are valid code, so their directives are
// comment lines and their placeholders are identifiers or strings (see templates/README.md):
//   @if FLAG ... @end            kept only when FLAG is set
//   @tool-begin ... @tool-end    repeated once per tool, with that tool's placeholders
// A directive line is a comment (//, # or <!-- -->) holding only the directive; it is dropped.

/** One tool of the file being generated. */
export type RenderedTool = {
  /** The tool id opencode will show the model: `name` or `name_export`. */
  id: string
  /** `default` or the named export. */
  exportName: string
  /** This tool's description. */
  description: string
  /** URL of this tool's script, relative to the module (python template). */
  scriptUrl: string
}

export type RenderContext = {
  flags: ReadonlySet<string>
  tools: readonly RenderedTool[]
  /** Plain placeholders replaced everywhere, such as `__TOOL_NAME__`. */
  values: Readonly<Record<string, string>>
  /** The description of the whole file or package. */
  description: string
}

export function renderTemplate(source: string, context: RenderContext): string {
  const lines = source.split("\n")
  const output: string[] = []
  const skipping: boolean[] = []
  let block: string[] | undefined
  for (const line of lines) {
    const directive = parseDirective(line)
    if (directive === undefined) {
      if (skipping.includes(true)) continue
      if (block !== undefined) block.push(line)
      else output.push(line)
      continue
    }
    if (directive.kind === "if") skipping.push(!context.flags.has(directive.flag))
    else if (directive.kind === "end") skipping.pop()
    else if (skipping.includes(true)) continue
    else if (directive.kind === "tool-begin") block = []
    else {
      output.push(...repeatBlock(block ?? [], context))
      block = undefined
    }
  }
  return replaceFileValues(output.join("\n"), context)
}

/** The identifiers a module declares at its top level (imports, const, function, class, type). */
export function topLevelIdentifiers(source: string): string[] {
  const names = new Set<string>()
  for (const match of source.matchAll(/^import\s+(?:type\s+)?(?:\{([^}]*)\}|\*\s+as\s+(\w+)|(\w+))/gm)) {
    for (const part of (match[1] ?? "").split(",")) {
      const local = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.replace(/^type\s+/, "")
      if (local) names.add(local)
    }
    if (match[2]) names.add(match[2])
    if (match[3]) names.add(match[3])
  }
  for (const match of source.matchAll(
    /^(?:export\s+)?(?:async\s+)?(?:const|let|var|function\*?|class|type)\s+(\w+)/gm,
  )) {
    names.add(match[1]!)
  }
  return [...names].sort()
}

/** A tool id as an object key: bare when it is an identifier, quoted otherwise (`"my-tool"`). */
export function objectKey(id: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(id) ? id : JSON.stringify(id)
}

// --- internal ---

type Directive = { kind: "if"; flag: string } | { kind: "end" } | { kind: "tool-begin" } | { kind: "tool-end" }

function parseDirective(line: string): Directive | undefined {
  const match = /^\s*(?:\/\/|#|<!--)\s*@(if\s+([\w-]+)|end|tool-begin|tool-end)\s*(?:-->)?\s*$/.exec(line)
  if (match === null) return undefined
  if (match[2] !== undefined) return { kind: "if", flag: match[2] }
  return { kind: match[1] as "end" | "tool-begin" | "tool-end" }
}

function repeatBlock(block: readonly string[], context: RenderContext): string[] {
  const output: string[] = []
  context.tools.forEach((tool, index) => {
    if (index > 0 && block.length > 1) output.push("")
    for (const line of block) output.push(replaceToolValues(line, tool))
  })
  return output
}

function replaceToolValues(line: string, tool: RenderedTool): string {
  let result = line
  if (tool.exportName !== "default") result = result.replace(/^export default /, `export const ${tool.exportName} = `)
  result = replaceLiteral(result, '"__DESCRIPTION__"', JSON.stringify(tool.description))
  result = replaceLiteral(result, "__TOOL_KEY__", objectKey(tool.id))
  result = replaceLiteral(result, "__TOOL_ID__", tool.id)
  result = replaceLiteral(result, "__EXPORT__", tool.exportName)
  return replaceLiteral(result, "__SCRIPT_URL__", tool.scriptUrl)
}

function replaceFileValues(text: string, context: RenderContext): string {
  const ids = `[${context.tools.map((tool) => JSON.stringify(tool.id)).join(", ")}]`
  let result = replaceLiteral(text, '["__TOOL_IDS__"]', ids)
  result = replaceLiteral(result, '"__DESCRIPTION__"', JSON.stringify(context.description))
  result = replaceLiteral(result, "__DESCRIPTION__", context.description)
  for (const [placeholder, value] of Object.entries(context.values)) result = replaceLiteral(result, placeholder, value)
  return result
}

/** Replaces every occurrence, taking `value` literally (String.replaceAll would expand `$&` in it). */
function replaceLiteral(text: string, search: string, value: string): string {
  return text.split(search).join(value)
}
