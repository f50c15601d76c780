// A readable transcript of an e2e run, for the CLI without `--json`: the tools opencode offered,
// each call as the model made it and as opencode ran it, what the model read back, then the
// tool-output files and opencode's errors. Plain text; colour only when asked.

import { type Palette, palette } from "../_palette.ts"
import { terminalSafe } from "../_terminal-safe.ts"
import type { E2ECall, E2EResult } from "./e2e-result.ts"
import { offeredToolNames } from "./offered-tools.ts"
import { count } from "../_count.ts"
import { ToolTesterError } from "../errors.ts"
import { safeStringify } from "../_json-safe.ts"

export interface TranscriptOptions {
  /** Colour with ANSI codes (kleur/colors, which also honours NO_COLOR). Default false. */
  color?: boolean
  /** Lines of each tool result to show (default 12). */
  maxResultLines?: number
}

export function formatTranscript(result: E2EResult, options: TranscriptOptions = {}): string {
  const given = result as unknown as Record<string, unknown> | null
  if (typeof given !== "object" || given === null || !Array.isArray(given["calls"]))
    throw new ToolTesterError("USAGE", "formatTranscript() expects what runE2E() resolved to: await the run first", {
      data: { option: "result" },
    })
  const paint = palette(options.color === true)
  const maxLines = options.maxResultLines ?? 12
  const lines: string[] = []
  const seconds = (result.durationMs / 1000).toFixed(1)
  // A program that is not opencode (its --help said so) is named as the path it is, not as opencode.
  const program =
    result.notOpencode === undefined
      ? `opencode${result.opencodeVersion ? ` ${result.opencodeVersion}` : ""}`
      : `${terminalSafe(result.opencode)} (not opencode: ${terminalSafe(result.notOpencode)})`
  lines.push(
    paint.bold(`${program} e2e run with ${result.model}`) +
      paint.dim(` (exit ${result.exitCode ?? "killed"}, ${result.requests.length} model requests, ${seconds} s)`),
  )
  lines.push(
    result.tools === null
      ? paint.red("No tools were offered.")
      : `Tools offered: ${terminalSafe(offeredToolNames(result.tools).join(", "))}`,
  )

  let turn = -1
  for (const call of result.calls) {
    if (call.turn !== turn) {
      turn = call.turn
      lines.push("", paint.bold(`Turn ${turn + 1}`))
    }
    lines.push(...formatCall(call, paint, maxLines))
  }
  const said = modelTexts(result.events)
  if (said.length > 0) lines.push("", paint.bold("Model text"), ...said.map((text) => `  ${terminalSafe(text)}`))

  if (result.toolOutputFiles.length > 0) {
    lines.push("", paint.bold("Tool output files"))
    for (const file of result.toolOutputFiles)
      lines.push(`  ${terminalSafe(file.name)} ${paint.dim(`(${file.bytes} bytes)`)}`)
  }
  if (result.errors.length > 0) {
    lines.push("", paint.bold(paint.red("opencode errors")))
    for (const error of result.errors) lines.push(`  ${paint.dim(`[${error.source}]`)} ${terminalSafe(error.message)}`)
  }
  return `${lines.join("\n")}\n`
}

// --- internal ---

function formatCall(call: E2ECall, paint: Palette, maxLines: number): string[] {
  // What tools and the model wrote is shown escaped: it must not drive the terminal (../_terminal-safe.ts).
  const lines = [
    `  ${paint.cyan("→")} ${paint.bold(terminalSafe(call.as_called.name))} ${terminalSafe(call.as_called.arguments)}`,
  ]
  const run = call.as_run
  if (run !== null && run.name !== call.as_called.name) {
    const how = run.name === "invalid" ? "rerouted to" : "repaired to"
    lines.push(
      `    ${paint.yellow(how)} ${paint.bold(terminalSafe(run.name))} ${run.name === "invalid" ? terminalSafe(run.arguments) : ""}`.trimEnd(),
    )
  }
  const status =
    call.status === null
      ? paint.red("no result")
      : call.status === "completed"
        ? paint.green(call.status)
        : paint.red(call.status)
  const details = [status]
  if (call.title !== null && call.title !== "") details.push(`title ${terminalSafe(JSON.stringify(call.title))}`)
  // Cut at 100 levels with a marker: a tool's metadata can nest deeper than JSON.stringify's stack.
  if (call.metadata !== null) details.push(`metadata ${terminalSafe(safeStringify(call.metadata))}`)
  lines.push(`    ${details.join(paint.dim(" · "))}`)
  const text = call.result ?? call.error
  if (text !== null) {
    const resultLines = text.split("\n")
    for (const line of resultLines.slice(0, maxLines)) lines.push(`    ${paint.dim("│")} ${terminalSafe(line)}`)
    if (resultLines.length > maxLines) {
      const more = resultLines.length - maxLines
      lines.push(`    ${paint.dim(`│ … ${count(more, "more line")}`)}`)
    }
  }
  return lines
}

function modelTexts(events: unknown[]): string[] {
  return events.flatMap((event) => {
    const part = (event as { part?: { type?: unknown; text?: unknown } }).part
    return part?.type === "text" && typeof part.text === "string" && part.text !== "" ? [part.text] : []
  })
}
