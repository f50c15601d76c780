// Every failure a user can cause has a code here, a one-line message saying what to do, and a test.
// Recognise these errors with ToolTesterError.isInstance(), never instanceof: tools may load a
// different copy of this package.

const marker = Symbol.for("opencode-tool-tester.error")

export type ToolTesterErrorCode =
  /** A tool or plugin file could not be imported (syntax error, missing package, throw at import). */
  | "IMPORT_FAILED"
  /** A plugin module was rejected or its plugin function threw during init. */
  | "PLUGIN_LOAD_FAILED"
  /** A plugin function awaits, during init, a client call opencode never answers there: opencode would hang. */
  | "PLUGIN_INIT_HANGS"
  /** No tool with that name is offered (after opencode's case repair). */
  | "TOOL_NOT_FOUND"
  /** zod cannot express an argument in JSON Schema (z.date(), z.bigint()): opencode's whole tool list breaks. */
  | "SCHEMA_UNREPRESENTABLE"
  /** The arguments did not satisfy the tool's schema (opt-in validation). */
  | "ARGS_INVALID"
  /** The argument text is not JSON, or a key=value pair cannot be read. */
  | "ARGS_UNPARSABLE"
  /** The tool threw or rejected. */
  | "TOOL_THREW"
  /** The tool returned something opencode cannot send (undefined, a number, an object without output). */
  | "TOOL_BAD_RESULT"
  /** The tool did not finish within the timeout. */
  | "TOOL_TIMEOUT"
  /** The tool ended or crashed the process running it (process.exit, out of memory): opencode itself would stop. */
  | "TOOL_EXITED"
  /** The call was stopped: the engine it shared with a call past its timeoutMs, or aborted and not stopping (or cancelled), was ended, or its own tool ignored its aborted signal; in the CLI, a signal. */
  | "INTERRUPTED"
  /** The tool replaced or added to the engine's built-ins (JSON.stringify, Object.prototype.toJSON, an Array method), which opencode shares with it. */
  | "TOOL_TAMPERED"
  /** The call went to the `invalid` tool instead (unknown name or unparsable arguments), as opencode reroutes it. */
  | "TOOL_REROUTED"
  /** An opencode.json / opencode.jsonc could not be parsed. */
  | "CONFIG_INVALID"
  /** A path given to the harness does not exist or is not a folder. */
  | "PATH_NOT_FOUND"
  /** A plugin or config written for opencode 2 (`@opencode/plugin`, `Plugin.define`, a `plugins` key): tool-tester models opencode 1.x. */
  | "OPENCODE_2"
  /** The command line was wrong. */
  | "USAGE"
  /** No opencode binary was found for e2e. */
  | "OPENCODE_NOT_FOUND"
  /** The bun engine was asked for and no Bun could be found or installed, or the engine name is unknown. */
  | "ENGINE_NOT_FOUND"
  /** The engine process failed to start, or ended outside any tool call. */
  | "ENGINE_FAILED"
  /** Something in the engine's process (a tool, a process it started) wrote on the engine's channel: the engine was stopped, its answer unbelievable. */
  | "CHANNEL_FORGED"
  /** Something in the engine's process closed the engine's channel (file descriptor 3) while it ran: no answer could come back. */
  | "CHANNEL_CLOSED"
  /** The engine's answer (a result with its metadata and attachments) is larger than its channel carries (64 MiB). */
  | "RESULT_TOO_LARGE"
  /** CLI only: the provider given cannot write the model's next request with this result (`result.modelRequestError`). */
  | "RESULT_UNSENDABLE"
  /** The opencode binary failed to start or ended with an error. */
  | "OPENCODE_FAILED"
  /** An e2e script is malformed. */
  | "SCRIPT_INVALID"
  /** The mock model server could not listen. */
  | "PORT_IN_USE"
  /** A CLI command needs a package that is not installed with tool-tester (fuzz, preflight, dev): the message names the command that installs it. */
  | "EXTRA_NOT_INSTALLED"
  /** A plugin called input.client and no opencode server could answer (no opencode binary, or it failed to start). */
  | "CLIENT_UNAVAILABLE"
  /** A plugin called an input.client method the client stub a test passed does not have. */
  | "CLIENT_METHOD_MISSING"
  /** An eval case file or case is malformed (file, line and key in the message); the other cases still run. */
  | "EVAL_CASE_INVALID"
  /** An eval case names a tool (expected, forbidden, with results or executed) that no model is offered. */
  | "EVAL_TOOL_UNKNOWN"
  /** `verify`: tool-tester and the user's opencode differ on a probe (the report names the behaviours). */
  | "VERIFY_DIFFERS"
  /** `verify`: nothing compared differs, but a probe run could not be compared (a side failed to start or crashed; the report lists why). */
  | "VERIFY_INCOMPLETE"
  /** `eval --variants FILE`: the file is missing, not JSON, or names a tool or argument the project does not have. */
  | "EVAL_VARIANTS_INVALID"
  /** `eval --without TOOL_ID`: no tool of the project has that id. */
  | "EVAL_WITHOUT_UNKNOWN"
  /** The CLI could not write its stdout or stderr (a full disk, EIO): what it printed there is lost (exit 1). */
  | "OUTPUT_FAILED"
  /** `eval --threshold RATE`: a case x model pass rate is below it (exit 8; `--json`'s failure line). */
  | "EVAL_BELOW_THRESHOLD"
  /** A throw-away folder is not private: opencode would read config planted above it, or a write would leave it. */
  | "TEMP_FOLDER_UNSAFE"

export class ToolTesterError extends Error {
  readonly code: ToolTesterErrorCode
  readonly data: Record<string, unknown> | undefined
  readonly [marker] = true
  override readonly name = "ToolTesterError"

  constructor(
    code: ToolTesterErrorCode,
    message: string,
    options: { data?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.data = options.data
  }

  static isInstance(value: unknown): value is ToolTesterError {
    try {
      return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[marker] === true
    } catch {
      // A thrown Proxy whose traps throw is not one of ours.
      return false
    }
  }
}

/** What a pipeline step returns: steps report failures as values; only harness misuse throws. */
export type Result<T, E = ToolTesterError> = { success: true; value: T } | { success: false; error: E }

/** A thrown value's message for a report, never throwing itself (a Proxy's traps may throw). */
export function messageOfThrown(value: unknown): string {
  try {
    if (typeof value === "object" && value !== null && "message" in value && typeof value.message === "string")
      return value.message
    return String(value)
  } catch {
    return "a value that cannot be read"
  }
}
