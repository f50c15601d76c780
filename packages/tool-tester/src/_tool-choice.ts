// The end of a message about a tool name that names no tool: the tools to pick from, or, when the
// project has none, where opencode looks for them ("pick one of (none found)" told nothing).

/** `pick one of a, b`, or where tools come from when `names` is empty. */
export function toolChoice(verb: string, names: readonly string[]): string {
  if (names.length > 0) return `${verb} one of ${names.join(", ")}`
  return "this project has no custom or plugin tool: opencode reads tool files from .opencode/tools/ (and tool/), and tools from the plugins opencode.json lists"
}
