// Human reports for list, schema and doctor, and failure lines. Plain text that reads the same
// without colour; `--json` output never goes through here. What tools and files chose (ids,
// descriptions, paths, messages) goes through terminalSafe: a terminal must show it, not obey it.
import path from "node:path"
import { terminalSafe } from "../_terminal-safe.ts"
import type { Finding } from "../doctor/finding.ts"
import { describeEngine } from "../engine-client/choose-engine.ts"
import type { EngineReport } from "../tasks/task-failure.ts"
import { type ModelSelection, modelFilterNote } from "../pipeline/builtins.ts"
import type { ToolSchema } from "../pipeline/tool-schemas.ts"
import type { Diagnostic, ListedTool } from "../types.ts"
import { bold, cyan, dim, red, yellow } from "./_color.ts"
import { count } from "../_count.ts"

export function formatList(
  tools: readonly ListedTool[],
  model: ModelSelection,
  cwd: string,
  /** Custom and plugin tools this model is not offered (opencode's per-model filter). */
  hidden: ReadonlyArray<{ id: string; file: string }> = [],
): string {
  const width = Math.max(4, ...tools.map((tool) => tool.id.length))
  const lines = [bold(`${tools.length} tools offered to ${model.npm} ${model.modelID}, in opencode's order:`)]
  for (const tool of tools) {
    lines.push(`  ${cyan(terminalSafe(tool.id.padEnd(width)))}  ${describeSource(tool, cwd)}`)
  }
  if (hidden.length > 0) lines.push("", yellow(`Not offered to ${model.modelID}:`))
  for (const tool of hidden) {
    const note = modelFilterNote(tool.id) ?? "hidden by opencode's per-model filter"
    lines.push(
      `  ${cyan(terminalSafe(tool.id))}  ${terminalSafe(shortPath(cwd, tool.file))}: like the built-in ${terminalSafe(tool.id)}, ${note}`,
    )
  }
  return `${lines.join("\n")}\n`
}

export function formatSchemas(
  tools: readonly ToolSchema[],
  model: ModelSelection,
  /** Whether an error is reported below: with none offered, it is why. */
  failed = false,
): string {
  if (tools.length === 0) {
    const why = failed ? "; the error below says why" : ""
    return `${dim(`No custom or plugin tool is offered to ${model.npm} ${model.modelID}${why}.`)}\n`
  }
  const blocks = tools.map((tool) => {
    const header = `${bold(cyan(terminalSafe(tool.name)))}${tool.strict === false ? dim("  (strict: false)") : ""}`
    const description = tool.description === "" ? dim("(no description)") : terminalSafe(tool.description)
    return `${header}\n${indent(description)}\n${indent(terminalSafe(JSON.stringify(tool.parameters, null, 2)))}`
  })
  return `${blocks.join("\n\n")}\n`
}

export function formatDiagnostics(
  diagnostics: ReadonlyArray<Omit<Diagnostic, "code"> & { code: string }>,
  cwd: string,
): string {
  if (diagnostics.length === 0) return ""
  const lines = diagnostics.map((diagnostic) => {
    const file = diagnostic.file ? `${shortPath(cwd, diagnostic.file)}: ` : ""
    const message = diagnostic.file ? withoutPrefix(diagnostic.message, `${diagnostic.file}: `) : diagnostic.message
    return `${mark(diagnostic.severity)} ${terminalSafe(file + message)} ${dim(`[${diagnostic.code}]`)}`
  })
  return `${lines.join("\n")}\n`
}

export function formatFindings(
  findings: readonly Finding[],
  counts: { files: number; tools: number },
  cwd: string,
): string {
  const lines = findings.map(
    (finding) =>
      `${mark(finding.severity)} ${oneLine(`${finding.file ? `${shortPath(cwd, finding.file)}: ` : ""}${finding.message}`)} ${dim(`[${finding.code}]`)}`,
  )
  const errors = findings.filter((finding) => finding.severity === "error").length
  const warnings = findings.length - errors
  const scanned = `${counts.files} tool ${counts.files === 1 ? "file" : "files"}, ${counts.tools} ${counts.tools === 1 ? "tool" : "tools"}`
  lines.push(
    findings.length === 0
      ? bold(`No problems found (${scanned}).`)
      : bold(`${count(errors, "error")}, ${count(warnings, "warning")} (${scanned}).`),
  )
  return `${lines.join("\n")}\n`
}

/**
 * What list and doctor say when `directory` gives no custom or plugin tool at all: most often the
 * command ran in another folder than the project's, and a list of built-ins or "No problems found"
 * would not say so.
 */
export function noToolsHint(directory: string, global: boolean, packageHint?: string): string {
  return `${yellow("!")} ${terminalSafe(noToolsMessage(directory, global, packageHint))}\n`
}

/**
 * noToolsHint's words, plain: `dev --json` gives them as its `error` (code NO_TOOLS). `global`: the
 * global config folder was read (false under --no-global). `packageHint` (plugin-package-hint.ts):
 * the folder is a plugin package, and --plugin is what loads it.
 */
export function noToolsMessage(directory: string, global: boolean, packageHint?: string): string {
  const what = packageHint ? `${packageHint}.` : "Run tool-tester from your project's folder, or pass --dir with it."
  const globalFolder = global
    ? "and from the tools/ folder of its global config"
    : "and from the tools/ folder of its global config, left out here (--no-global)"
  return `No custom or plugin tool found for ${directory}: opencode reads tool files from .opencode/tool/ and .opencode/tools/ there and in the folders above it up to the git root, ${globalFolder}. ${what}`
}

/** The engine line of list, schema and doctor (on stderr, beside the diagnostics). */
export function formatEngine(engine: EngineReport): string {
  return `${dim(`engine: ${terminalSafe(describeEngine(engine.info, engine.source))}`)}\n`
}

export function formatFailure(failure: { code: string; message: string }): string {
  return `${red("✖")} ${oneLine(failure.message)} ${dim(`[${failure.code}]`)}\n`
}

/**
 * Errors print on one line: a newline inside a message (quoted model text) is shown as \n, and
 * what a terminal would act on (escape sequences, carriage returns, bidi overrides) is escaped.
 */
function oneLine(message: string): string {
  return terminalSafe(message).replaceAll("\n", "\\n")
}

/** A path relative to the working directory when it is inside it. */
export function shortPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file)
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative) ? file : relative
}

export function indent(text: string, prefix = "  "): string {
  return text
    .split("\n")
    .map((line) => prefix + line)
    .join("\n")
}

// --- internal ---

function describeSource(tool: ListedTool, cwd: string): string {
  if (tool.source === "builtin") return dim("built-in")
  const where = tool.file ? terminalSafe(shortPath(cwd, tool.file)) : ""
  const parts = [tool.source === "plugin" ? `plugin ${tool.plugin ? terminalSafe(tool.plugin) : where}` : where]
  if (tool.export && tool.export !== "default") parts.push(`export ${terminalSafe(tool.export)}`)
  if (tool.overrides === "builtin") parts.push(yellow("replaces the built-in"))
  else if (tool.overrides) parts.push(yellow(`replaces ${terminalSafe(shortPath(cwd, tool.overrides))}`))
  return parts.join(", ")
}

function mark(severity: "error" | "warning"): string {
  return severity === "error" ? red("✖ error  ") : yellow("⚠ warning")
}

function withoutPrefix(text: string, prefix: string): string {
  return text.startsWith(prefix) ? text.slice(prefix.length) : text
}
