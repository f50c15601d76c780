// The human report of `run`: what happened, the model's view of the output between clear markers,
// then what the tool printed on its console (which opencode never sends to the model). Everything
// the tool chose (names, texts, paths) goes through terminalSafe: a terminal must show it, not obey it.

import { terminalSafe } from "../_terminal-safe.ts"
import { stringifyKeepingNegativeZero } from "../_negative-zero-json.ts"
import { describeEngine } from "../engine-client/choose-engine.ts"
import { modelFilterNote } from "../pipeline/builtins.ts"
import { escapedLine } from "../runtime/escaped-advice.ts"
import type { CapturedConsole } from "../runtime/stream-capture.ts"
import type { RunJson } from "../tasks/run-task.ts"
import type { EngineReport } from "../tasks/task-failure.ts"
import { bold, cyan, dim, green, red, yellow } from "./_color.ts"
import { indent, shortPath } from "./report.ts"

export function formatRun(
  result: RunJson,
  captured: CapturedConsole | undefined,
  cwd: string,
  engine?: EngineReport,
): string {
  const lines: string[] = []
  const called =
    result.name === result.id
      ? ""
      : dim(` (called as ${terminalSafe(result.name)}${result.rerouted ? ", rerouted" : ", name repaired"})`)
  const status = result.status === "completed" ? green("completed") : red("error")
  lines.push(`${bold(cyan(terminalSafe(result.id)))}${called}  ${status}  ${dim(`${result.durationMs} ms`)}`)
  if (result.error) lines.push(`${red(result.error.code)}  ${terminalSafe(result.error.message)}`)
  if (result.suggestion)
    lines.push(
      yellow(`no tool is named ${terminalSafe(result.name)}; did you mean ${terminalSafe(result.suggestion)}?`),
    )
  if (result.denied)
    lines.push(
      yellow(
        `${terminalSafe(result.denied.tool)} is a tool of this project, denied by a permission rule: opencode does not offer it`,
      ),
    )
  if (result.hidden)
    lines.push(
      yellow(
        `${terminalSafe(result.hidden.tool)} is a tool of this project that opencode does not offer to this model: like the built-in, ${modelFilterNote(result.hidden.tool) ?? "hidden by opencode's per-model filter"}`,
      ),
    )
  lines.push(field("args", terminalSafe(stringifyKeepingNegativeZero(result.args) ?? "undefined")))
  if (result.title) lines.push(field("title", terminalSafe(String(result.title))))

  lines.push(...outputLines(result))
  lines.push(...modelMessageLines(result))

  lines.push(
    field(
      "metadata",
      result.metadata === null
        ? dim("none (opencode stores no title or metadata for a failed call)")
        : terminalSafe(JSON.stringify(result.metadata) ?? "undefined"),
    ),
  )
  lines.push(
    field(
      "truncated",
      result.truncated
        ? yellow(
            `yes, full output saved to ${result.outputPath ? terminalSafe(shortPath(cwd, result.outputPath)) : "(unknown)"}`,
          )
        : "no",
    ),
  )
  if (result.attachments && result.attachments.length > 0)
    lines.push(field("attachments", String(result.attachments.length)))
  for (const ask of result.asks) {
    const decision = ask.decision === "allow" ? green("allow") : red("deny")
    lines.push(
      field(
        "ask",
        terminalSafe(`${ask.permission} ${JSON.stringify(ask.patterns)} → `) +
          `${decision} ${dim(terminalSafe(`(rule ${ask.rule.permission}: ${ask.rule.action})`))}`,
      ),
    )
  }
  for (const { hook, file, message } of result.hookErrors ?? []) {
    lines.push(field("hook error", yellow(terminalSafe(`${shortPath(cwd, file)}: the ${hook} hook ${message}`))))
  }
  for (const escaped of result.escapedErrors ?? [])
    lines.push(field("escaped", yellow(escapedLine({ ...escaped, message: terminalSafe(escaped.message) }))))
  if (engine) lines.push(field("engine", terminalSafe(describeEngine(engine.info, engine.source))))
  if (captured) lines.push(...consoleLines(captured))
  return `${lines.join("\n")}\n`
}

// --- internal ---

/**
 * What the model would read instead, for the results tool-tester makes up itself (run.ts's
 * reachedResult, the pipeline's TOOL_TIMEOUT): their `output` is tool-tester's message, said on the
 * error line, which no model reads in opencode.
 */
const MADE_UP_OUTPUT = new Map([
  ["TOOL_EXITED", "none: opencode itself ends at this call, so the model reads no result"],
  [
    "TOOL_TIMEOUT",
    "none yet: opencode sets no time limit on a custom tool's call, so it would still be waiting for this one",
  ],
  [
    "CHANNEL_FORGED",
    "unknown: the engine's answer could not be believed; opencode has no such channel, and there the model reads the tool's own result",
  ],
  [
    "CHANNEL_CLOSED",
    "unknown: no answer came back over the engine's channel; opencode has no such channel, and there the model reads the tool's own result",
  ],
  [
    "RESULT_TOO_LARGE",
    "unknown: the answer was larger than the engine's channel carries; opencode has no such limit, and there the model reads the tool's own output, after opencode's truncation",
  ],
])

/**
 * The model's view of the output, between its markers; none for a result tool-tester made up
 * (MADE_UP_OUTPUT), whose line says what the model would read instead.
 */
function outputLines(result: RunJson): string[] {
  const madeUp = result.error === undefined ? undefined : MADE_UP_OUTPUT.get(result.error.code)
  if (madeUp !== undefined) return ["", field("output", yellow(madeUp)), ""]
  return [
    "",
    rule("output: what the model reads"),
    result.output === "" ? dim("(empty string)") : terminalSafe(result.output),
    rule("end of output"),
    "",
  ]
}

/**
 * With attachments, the request's messages that carry the result (pipeline/model-messages.ts): one
 * JSON line each, long strings (the files' data) shortened.
 */
function modelMessageLines(result: RunJson): string[] {
  if (result.modelMessages === undefined) return []
  if (result.modelRequestError !== undefined)
    return [
      field(
        "model gets",
        red(
          `nothing: opencode's run ends with "${terminalSafe(result.modelRequestError)}" as it writes the model's next request (this provider cannot take the attachments this model reads)`,
        ),
      ),
      "",
    ]
  if (result.modelMessages === null)
    return [
      field(
        "model gets",
        yellow(
          "the output with its attachments in this provider's own form, not modelled here: the e2e command with --provider shows it",
        ),
      ),
      "",
    ]
  const lines = [rule("with the attachments, the model's request carries")]
  for (const message of result.modelMessages) lines.push(terminalSafe(JSON.stringify(message, shortStrings)))
  // Cohere's package sends the files the model reads as the request's documents.
  if (result.modelDocuments !== undefined && result.modelDocuments.length > 0) {
    lines.push(rule("and in the request's documents"))
    for (const document of result.modelDocuments) lines.push(terminalSafe(JSON.stringify(document, shortStrings)))
  }
  lines.push(rule("end of the request's messages"), "")
  return lines
}

function shortStrings(_key: string, value: unknown): unknown {
  if (typeof value !== "string" || value.length <= 120) return value
  return `${value.slice(0, 60)}…(${value.length - 80} more)…${value.slice(-20)}`
}

function consoleLines(captured: CapturedConsole): string[] {
  const streams = (["stdout", "stderr"] as const).filter(
    (stream) => captured[stream] !== "" || captured.droppedBytes[stream] > 0,
  )
  if (streams.length === 0) return []
  const lines = ["", rule("tool console: printed by the tool, not sent to the model")]
  for (const stream of streams) {
    const text = terminalSafe(captured[stream].replace(/\n$/, ""))
    if (text !== "") lines.push(indent(text, dim(`${stream} | `)))
    const dropped = captured.droppedBytes[stream]
    if (dropped > 0) lines.push(dim(`${stream} | ... ${dropped} more bytes not kept (the first 64 KiB are shown)`))
  }
  return lines
}

function field(name: string, value: string): string {
  return `${dim(name.padEnd(11))} ${value}`
}

function rule(title: string): string {
  return dim(`── ${title} ${"─".repeat(Math.max(3, 60 - title.length))}`)
}
