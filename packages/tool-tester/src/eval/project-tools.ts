// The project's tools as eval needs them (tasks/eval-tools-task.ts), read in an engine's process:
// eval never imports user code in its own, so a tool file that prints, calls process.exit or loops
// at import cannot end, stall or corrupt the eval. A tool file that ends or stalls the engine while
// it is imported is named (EVAL_TOOL_NOT_WRAPPED), left out, and the others are read again without
// it; a plugin file that does so stops the eval (IMPORT_FAILED): opencode itself would not start.

import path from "node:path"
import { chooseEngine } from "../engine-client/choose-engine.ts"
import { runTaskInEngine, startEngine } from "../tasks/engine-task.ts"
import { loadFailure, loadTimeoutMs } from "../tasks/task-failure.ts"
import { ToolTesterError, type ToolTesterErrorCode } from "../errors.ts"
import { TOOL_FOLDERS } from "../discovery/scan.ts"
import type { EvalToolsPayload } from "../tasks/eval-tools-task.ts"
import type { ToolSnapshot } from "../eval-cases/types.ts"

export interface ProjectTools {
  /** Custom and plugin tools as opencode's default model is offered them. */
  tools: ToolSnapshot[]
  /** The first load problem: then `tools` may miss that file's tools. */
  error?: string
  /** Each tool file that loaded, by path, with its tool exports. */
  files: Map<string, Array<{ exportName: string; id: string }>>
  /** Tool files left out (failed to import, ended or stalled the engine), each as a problem. */
  problems: Array<{ code: string; file: string; message: string }>
  /** Every place a tool id is defined: a tool file (with its config folder's kind) or a plugin. */
  definitions: EvalToolsPayload["definitions"]
}

/** Reads the project's tools in an engine (bun when one is found, as other commands choose). */
export async function readProjectTools(
  directory: string,
  env: Record<string, string | undefined> = process.env,
): Promise<ProjectTools> {
  const chosen = await chooseEngine({ env, directory })
  const timeout = loadTimeoutMs(env)
  const skip: string[] = []
  const problems: ProjectTools["problems"] = []
  for (;;) {
    const outcome = await runTaskInEngine(
      { command: "eval-tools", input: { directory, skip } },
      { loadTimeoutMs: timeout, runTimeoutMs: timeout, graceMs: 0 },
      startEngine("eval-tools", chosen.selection),
    )
    if (outcome.kind === "done") {
      const payload = outcome.payload as EvalToolsPayload
      for (const failed of payload.failed) {
        if (!skip.includes(failed.file) && isToolFile(failed.file))
          problems.push({
            code: "EVAL_TOOL_NOT_WRAPPED",
            file: failed.file,
            message: leftOut(failed.file, failed.message),
          })
      }
      const error = problems[0]?.message ?? payload.listError
      return {
        tools: payload.tools,
        ...(error === undefined ? {} : { error }),
        files: new Map(payload.files.map((entry) => [entry.file, entry.tools])),
        problems,
        definitions: payload.definitions,
      }
    }
    const failure = loadFailure(outcome, timeout) ?? {
      code: "ENGINE_FAILED",
      message: "the engine reading the project's tools ended without an answer",
    }
    const file = outcome.loadingFile
    const stopped = (outcome.kind === "exited" || outcome.kind === "timeout") && outcome.phase === "load"
    if (stopped && file !== undefined && isToolFile(file) && !skip.includes(file)) {
      skip.push(file)
      problems.push({ code: "EVAL_TOOL_NOT_WRAPPED", file, message: leftOut(file, failure.message) })
      continue
    }
    throw new ToolTesterError(failure.code as ToolTesterErrorCode, `eval cannot run: ${failure.message}`)
  }
}

/**
 * The project's custom and plugin tools (ids, descriptions, JSON Schemas), read without opencode:
 * what `eval --init` writes cases from and what case files are checked against. `error` is the
 * first load problem; then the list may miss that file's tools.
 */
export async function listProjectTools(directory: string): Promise<{ tools: ToolSnapshot[]; error?: string }> {
  const { tools, error } = await readProjectTools(directory)
  return error === undefined ? { tools } : { tools, error }
}

// --- internal ---

function isToolFile(file: string): boolean {
  return (TOOL_FOLDERS as readonly string[]).includes(path.basename(path.dirname(file)))
}

function leftOut(file: string, reason: string): string {
  const said = reason.startsWith(file) ? reason : `${file}: ${reason}`
  return `${said}; its tools are left out of the eval`
}
