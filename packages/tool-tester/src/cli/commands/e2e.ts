import { toolTesterCommand } from "../invocation.ts"
import { readFileSync } from "node:fs"
import path from "node:path"
import { safeStringify } from "../../_json-safe.ts"
import { shellWord, userShell } from "../../_shell-quote.ts"
import { configProblem, type OpencodeConfig } from "../../config/opencode-config.ts"
import { sourceFileProblem } from "../../discovery/_source-file.ts"
import { type E2EError, type E2EResult, sessionFailure } from "../../e2e/e2e-result.ts"
import { lastUncaughtError, uncaughtDetail } from "../../e2e/escaped-error.ts"
import { unofferedCall } from "../../e2e/offered-tools.ts"
import { runE2E } from "../../e2e/run-e2e.ts"
import { exactOpencodeVersion } from "../../opencode/opencode-binary.ts"
import { parseScriptText } from "../../e2e/script.ts"
import { formatTranscript } from "../../e2e/transcript.ts"
import { embeddedBunVersion } from "../../engine-client/find-bun.ts"
import { ToolTesterError } from "../../errors.ts"
import { providerPackage } from "../../pipeline/provider-names.ts"
import type { EngineInfo } from "../../runtime/here.ts"
import { colorEnabled } from "../_color.ts"
import type { CliIO } from "../_command.ts"
import { parseFlags, reportFailure } from "../_command.ts"
import { EXIT_LOAD_FAILED, EXIT_OK, EXIT_REROUTED, EXIT_TOOL_FAILED, exitCodeFor } from "../exit-codes.ts"
import { interruptible } from "../interruptible.ts"
import { timeoutFlag } from "../number-flag.ts"
import { COMMAND_OPTIONS, parseConfigOf } from "../option-table.ts"
import { projectDirectory } from "../project-directory.ts"
import { opencodeOption } from "../opencode-option.ts"

/**
 * `tool-tester e2e`: runs the project's tools inside the real opencode binary, offline, with a
 * scripted mock model, and prints what opencode offered, ran and returned. The tools run in
 * opencode's own process, so isolation is opencode's; the whole run is bounded by `--timeout`, and
 * each tool call, from when the model asks for it, by `--call-timeout`.
 */
export async function e2eCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags(
    { args: argv, options: parseConfigOf(COMMAND_OPTIONS.e2e) },
    { command: "e2e", run: toolTesterCommand(io), scriptOption: true },
  )
  const json = values.json === true
  if (values.opencode !== undefined && values["opencode-version"] !== undefined) {
    throw new ToolTesterError("USAGE", "give either --opencode PATH or --opencode-version V, not both")
  }
  const provider = values.provider === undefined ? undefined : providerPackage(values.provider)
  // The flags' values (numbers, --config's JSON) before any file is read: a usage error is reported as one.
  const timeoutMs = values.timeout === undefined ? undefined : timeoutFlag("--timeout", values.timeout)
  const callTimeoutMs =
    values["call-timeout"] === undefined ? undefined : timeoutFlag("--call-timeout", values["call-timeout"])
  const config = values.config === undefined ? undefined : configObject(values.config)
  if (values["opencode-version"] !== undefined) exactOpencodeVersion(values["opencode-version"])
  // --init prints the command that runs its script, with these options: checked above, like a run's.
  if (values.init === true) return (await import("./e2e-init.ts")).writeStarterScript(values, io)
  if (values.script === undefined)
    throw new ToolTesterError(
      "USAGE",
      `e2e needs --script SCRIPT.json (the model's turns); ${toolTesterCommand(io)} e2e --init writes a starter script`,
    )
  const scriptFile = path.resolve(io.cwd, values.script)
  const script = parseScriptText(readText(scriptFile), scriptFile)
  const project = projectDirectory(io.cwd, values.dir)
  if (project.notice && !json) io.writeError(`${project.notice}\n`)
  const options: Parameters<typeof runE2E>[0] = {
    directory: project.directory,
    // Relative plugin paths are taken from here, like every path on the command line.
    plugins: (values.plugin ?? []).map((spec) => (spec.startsWith(".") ? path.resolve(io.cwd, spec) : spec)),
    script,
  }
  if (values.opencode !== undefined) options.opencode = opencodeOption(io.cwd, values.opencode)
  if (values["opencode-version"] !== undefined) options.opencodeVersion = values["opencode-version"]
  if (values.model !== undefined) options.model = values.model
  if (provider !== undefined) options.provider = provider
  if (config !== undefined) options.config = config
  if (values.agent !== undefined) options.agent = values.agent
  if (timeoutMs !== undefined) options.timeoutMs = timeoutMs
  if (callTimeoutMs !== undefined) options.callTimeoutMs = callTimeoutMs

  // Ctrl-C stops opencode and removes the throw-away folders before the CLI exits.
  let outcome: { value: E2EResult } | { exitCode: number }
  try {
    outcome = await interruptible(
      io,
      json,
      "interrupted: opencode was stopped and its folders removed",
      ({ signal, progress }) => runE2E({ ...options, signal, onProgress: progress.phase }),
    )
  } catch (error) {
    // A timeout or a failed run still has a result: print it, then the failure.
    const partial = ToolTesterError.isInstance(error) ? error.data?.["result"] : undefined
    if (partial !== undefined && ToolTesterError.isInstance(error)) {
      await print(io, json, partial as E2EResult)
      reportFailure(io, json, { code: error.code, message: error.message })
      return error.code === "OPENCODE_FAILED" ? EXIT_LOAD_FAILED : exitCodeFor(error.code)
    }
    throw error
  }
  if ("exitCode" in outcome) return outcome.exitCode
  const result = outcome.value
  await print(io, json, result)
  // What shows a tool file's own errors, when opencode failed building one.
  const doctor = `${toolTesterCommand(io)} doctor${values.dir === undefined ? "" : ` --dir ${shellWord(values.dir, userShell(io.env))}`}`
  const { exitCode, reason } = verdict(result, { directory: project.directory, doctor })
  if (reason) reportFailure(io, json, reason)
  return exitCode
}

// --- internal ---

/** The transcript, or the JSON document with the engine the tools ran in: the Bun that opencode embeds. */
async function print(io: CliIO, json: boolean, result: E2EResult): Promise<void> {
  if (!json) return io.write(formatTranscript(result, { color: colorEnabled() }))
  const engine: EngineInfo = {
    name: "bun",
    version: await embeddedBunVersion(result.opencode),
    binary: result.opencode,
  }
  // What opencode recorded can nest deeper than JSON.stringify's stack (a tool's metadata): cut
  // with a marker at 100 levels, as run's report is.
  io.write(`${safeStringify({ ...result, engine })}\n`)
}

/**
 * Exit codes in the spirit of `run`: 3 when opencode ended with an error, 4 when a tool call
 * ended in error or ended opencode (process.exit), 6 when a call was rerouted to `invalid` (or to
 * `invalid` that opencode did not offer either: every tool denied), else 0.
 */
function verdict(
  result: E2EResult,
  project: { directory: string; doctor: string },
): {
  exitCode: number
  reason?: { code: string; message: string }
} {
  const unfinished = result.errors.find((error) => error.source === "exit")
  if (unfinished) {
    // opencode's own session failed mid-call (its error event says why): opencode ended with an
    // error. Without one, the tool ended opencode's process (process.exit).
    if (sessionFailure(result.errors) !== undefined)
      return { exitCode: EXIT_LOAD_FAILED, reason: { code: "OPENCODE_FAILED", message: unfinished.message } }
    return { exitCode: EXIT_TOOL_FAILED, reason: { code: "TOOL_EXITED", message: unfinished.message } }
  }
  const plugin = result.errors.find((error) => error.source === "plugin")
  if (plugin) {
    return { exitCode: EXIT_LOAD_FAILED, reason: { code: "PLUGIN_LOAD_FAILED", message: plugin.message } }
  }
  if (result.exitCode !== 0) {
    // After an error escaped a tool, the last line is a stack frame: the `error:` line Bun printed says what happened.
    const uncaught = lastUncaughtError(result.errors, result.sandbox)
    const last = result.errors.at(-1)
    const detail = uncaught
      ? `exit code ${result.exitCode ?? "none"} after ${uncaughtDetail(uncaught)}`
      : last === undefined
        ? `exit code ${result.exitCode}`
        : loggedError(last, result.sandbox.project, project)
    return {
      exitCode: EXIT_LOAD_FAILED,
      reason: { code: "OPENCODE_FAILED", message: `opencode ended with an error: ${detail}` },
    }
  }
  // Before a call's error: the tool never ran, opencode had no tool to run it with.
  const unoffered = unofferedCall(result)
  if (unoffered !== undefined) return { exitCode: EXIT_REROUTED, reason: { code: "TOOL_REROUTED", message: unoffered } }
  const failed = result.calls.find((call) => call.status === "error")
  if (failed) {
    return {
      exitCode: EXIT_TOOL_FAILED,
      reason: {
        code: "TOOL_THREW",
        message: `the call to ${failed.as_called.name} ended in error: ${failed.error ?? failed.result ?? ""}`,
      },
    }
  }
  const rerouted = result.calls.find((call) => call.as_run?.name === "invalid" && call.as_called.name !== "invalid")
  if (rerouted) {
    return {
      exitCode: EXIT_REROUTED,
      reason: {
        code: "TOOL_REROUTED",
        message: `the call to ${rerouted.as_called.name} was rerouted to the invalid tool`,
      },
    }
  }
  return { exitCode: EXIT_OK }
}

/**
 * An error line of opencode's log as its `error="..."` alone, without the `cause` that repeats it
 * with opencode's own stack, the copy's path given as the project's; with what to run when a file
 * did not build (`AggregateError: 2 errors building "<file>"`: a tool file opencode could not import).
 */
function loggedError(error: E2EError, copy: string, project: { directory: string; doctor: string }): string {
  const quoted = error.source === "log" ? /\berror="((?:[^"\\]|\\.)*)"/.exec(error.message)?.[1] : undefined
  if (quoted === undefined) return error.message
  const text = quoted.replace(/\\(.)/g, "$1").replaceAll(copy, project.directory)
  return /\berrors? building "/.test(text) ? `${text}: a file did not build; ${project.doctor} shows why` : text
}

function readText(file: string): string {
  const unreadable = sourceFileProblem(file)
  if (unreadable !== undefined) {
    throw new ToolTesterError("PATH_NOT_FOUND", `${file} ${unreadable}: pass a script file with --script`, {
      data: { file },
    })
  }
  try {
    return readFileSync(file, "utf8")
  } catch (error) {
    const problem = (error as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : "cannot be read"
    throw new ToolTesterError("PATH_NOT_FOUND", `${file} ${problem}; pass the script file with --script`, {
      data: { file },
    })
  }
}

function configObject(text: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ToolTesterError(
      "USAGE",
      `--config is not JSON (${error instanceof Error ? error.message : String(error)})`,
    )
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ToolTesterError("USAGE", '--config must be a JSON object, such as {"permission":{"task":"deny"}}')
  }
  const refused = configProblem(value as OpencodeConfig)
  if (refused) {
    throw new ToolTesterError("CONFIG_INVALID", `--config: ${refused.message}`, { data: refused.data })
  }
  return value as Record<string, unknown>
}
