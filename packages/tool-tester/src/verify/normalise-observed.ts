// The run-specific text of an observed run (observed-run.ts) replaced by placeholders, so that a
// recording compares with tool-tester's side and with another recording: the sandbox's paths
// wherever they are, and opencode's error refs and log run ids only where opencode writes them (a
// call's result, title, metadata and error text, and what opencode printed), never in a tool id.

import { join } from "node:path"
import { escapeRegExp } from "../_escape-regexp.ts"
import type { E2EResult } from "../e2e/e2e-result.ts"
import type { ObservedRun } from "./observed-run.ts"

/** `run` with the paths of `sandbox` and the ids that change from run to run replaced. */
export function normaliseObserved(run: ObservedRun, sandbox: E2EResult["sandbox"]): ObservedRun {
  const placed = JSON.parse(withoutPaths(JSON.stringify(run), sandbox)) as ObservedRun
  // The ids of the run's tools: a tool may be named like a ref (`err_deadbeef`), and a text may name it.
  const toolIds = new Set([
    ...(placed.toolNames ?? []),
    ...placed.calls.flatMap((call) => [call.called.name, ...(call.ran === null ? [] : [call.ran.name])]),
  ])
  const scrub = <T>(value: T): T =>
    value === null ? value : (JSON.parse(withoutRunIds(JSON.stringify(value), toolIds)) as T)
  return {
    ...placed,
    calls: placed.calls.map((call) => ({
      ...call,
      result: scrub(call.result),
      title: scrub(call.title),
      metadata: scrub(call.metadata),
      error: scrub(call.error),
    })),
    errors: placed.errors.map((error) => ({ ...error, message: scrub(error.message) })),
  }
}

/**
 * `text` with the ids that change from run to run replaced: opencode's error refs (`err_` and the
 * first 8 hex digits of a UUID, which its server gives an unexpected error: `"ref":"err_1a2b3c4d"`)
 * by `err_<ref>`, its log lines' run ids (`run=0f3c9a7e`) by `run=<id>`. Only whole tokens of that
 * form, and none that is one of `toolIds`: a tool id or text such as `get_err_log` or `rerun=abc`
 * is kept as it is.
 */
export function withoutRunIds(text: string, toolIds: ReadonlySet<string> = new Set()): string {
  const unlessToolId = (placeholder: string) => (token: string) => (toolIds.has(token) ? token : placeholder)
  // A token starts after a character of no name, or after an escaped line break or tab of JSON text.
  return text
    .replace(/(?:(?<![\w-])|(?<=\\[nrt]))err_[0-9a-f]{8}(?![\w-])/g, unlessToolId("err_<ref>"))
    .replace(/(?:(?<![\w-])|(?<=\\[nrt]))run=[0-9a-f]+(?![\w-])/g, unlessToolId("run=<id>"))
}

// --- internal ---

/** JSON `text` with the sandbox's paths replaced: the saved outputs, the project, the home, the rest. */
function withoutPaths(text: string, sandbox: E2EResult["sandbox"]): string {
  const sandboxRoot = sandbox.home.replace(/[\\/]home$/, "")
  const outputFolder = join(sandbox.data, "opencode", "tool-output")
  // Paths as they appear inside JSON text (a Windows path's backslashes are escaped there).
  const inJson = (path: string) => JSON.stringify(path).slice(1, -1)
  return text
    .replace(new RegExp(`${escapeRegExp(inJson(outputFolder))}(?:\\\\\\\\|/)tool_[A-Za-z0-9]+`, "g"), "<outputPath>")
    .split(inJson(sandbox.project))
    .join("<directory>")
    .split(inJson(sandbox.home))
    .join("<home>")
    .split(inJson(sandboxRoot))
    .join("<sandbox>")
}
