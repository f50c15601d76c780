// The exit codes of the `tool-tester` bin. Scripts and CI depend on them: keep them, and keep
// docs/cli.md in step.
import type { ToolTesterErrorCode } from "../errors.ts"

/** The command did what was asked: the tool ran and completed, the list has no problem, doctor found no error. */
export const EXIT_OK = 0
/** The command line was wrong (unknown flag, missing name, bad number, two argument forms), or the harness was misused (missing folder, built-in tool name). */
export const EXIT_USAGE = 1
/** The arguments failed validation: `--validate`, or the built-in `invalid` tool called with bad arguments. */
const EXIT_ARGS_INVALID = 2
/** A tool or plugin file failed to load, the config cannot be read, or opencode's tool list would break (z.date(), z.bigint()). */
export const EXIT_LOAD_FAILED = 3
/** The tool threw, returned something opencode cannot send, ended its process, or wrote on or closed the engine's channel. */
export const EXIT_TOOL_FAILED = 4
/** The tool (or loading the tool files) did not finish within the timeout. */
const EXIT_TIMEOUT = 5
/** The call was rerouted to the `invalid` tool (unknown name, unparsable `--raw-args`). */
export const EXIT_REROUTED = 6
/** The command needs a package that is not installed with tool-tester (`fuzz`, `preflight`, `dev`); the message says how to install it. */
const EXIT_NOT_INSTALLED = 7

/** `eval --threshold`: a case x model pass rate is below the threshold. */
export const EXIT_BELOW_THRESHOLD = 8

/** `verify`: tool-tester and the user's opencode differ somewhere (the report names where). */
export const EXIT_VERIFY_DIFFERS = 9

/** `verify`: nothing compared differs, but a probe run could not be compared (a side failed to start or crashed). */
export const EXIT_VERIFY_INCOMPLETE = 10

/** The exit code for a failure with this code. */
export function exitCodeFor(code: ToolTesterErrorCode | (string & {})): number {
  switch (code) {
    case "ARGS_INVALID":
      return EXIT_ARGS_INVALID
    case "IMPORT_FAILED":
    case "PLUGIN_LOAD_FAILED":
    case "PLUGIN_INIT_HANGS":
    case "SCHEMA_UNREPRESENTABLE":
    case "CONFIG_INVALID":
    case "OPENCODE_2":
      return EXIT_LOAD_FAILED
    case "TOOL_THREW":
    case "TOOL_BAD_RESULT":
    case "TOOL_EXITED":
    case "TOOL_TAMPERED":
    case "CHANNEL_FORGED":
    case "CHANNEL_CLOSED":
    case "RESULT_TOO_LARGE":
    case "RESULT_UNSENDABLE":
      return EXIT_TOOL_FAILED
    case "TOOL_TIMEOUT":
      return EXIT_TIMEOUT
    case "TOOL_REROUTED":
      return EXIT_REROUTED
    case "EXTRA_NOT_INSTALLED":
      return EXIT_NOT_INSTALLED
    case "VERIFY_DIFFERS":
      return EXIT_VERIFY_DIFFERS
    case "VERIFY_INCOMPLETE":
      return EXIT_VERIFY_INCOMPLETE
    default:
      return EXIT_USAGE
  }
}
