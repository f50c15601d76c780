import { relative } from "node:path"
import { bold, cyan, dim, green, yellow } from "./_color.ts"
import type { NextSteps } from "./next-steps.ts"
import { printable } from "./printable.ts"
import type { ScaffoldResult } from "./scaffold.ts"

// What the CLI prints after writing: the files, the tool ids opencode will see, what to run next.
// Colour is decoration only: the command line switches it on for a terminal, as _color.ts says.

export function formatSummary(result: ScaffoldResult, steps: NextSteps, cwd: string): string {
  const language = result.language === "ts" ? "TypeScript" : "JavaScript"
  const what = result.location === "plugin" ? `plugin package ${result.packageName}` : `tool ${result.toolName}`
  const lines = [
    "",
    `${green("✔")} Created ${what} (${result.template.name} template, ${language}) in ${displayPath(result.root, cwd)}`,
    "",
    bold("Files:"),
    ...result.files.map((file) => `  ${statusLabel(file.status)} ${displayPath(file.path, cwd)}`),
    "",
    bold("Tool ids opencode will see:"),
    ...result.toolIds.map((id) => `  ${cyan(id)}`),
    "",
  ]
  if (result.notes.length > 0) {
    lines.push(...result.notes.map((note) => `${yellow("!")} ${note}`), "")
  }
  lines.push(bold("Next steps:"), ...steps.commands.map((command) => `  ${command}`), "", steps.hint, "")
  return lines.join("\n")
}

/** A path relative to `cwd` when it is inside it, else absolute; made printable (see printable.ts). */
export function displayPath(path: string, cwd: string): string {
  const relativePath = relative(cwd, path)
  return printable(relativePath === "" ? "." : relativePath.startsWith("..") ? path : relativePath)
}

// --- internal ---

function statusLabel(status: ScaffoldResult["files"][number]["status"]): string {
  const label = status.padEnd(11)
  return status === "kept" ? dim(label) : status === "created" ? green(label) : yellow(label)
}
