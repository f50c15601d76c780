import { count } from "../../_count.ts"
import { shellWord } from "../../_shell-quote.ts"
import { toolTesterCommand } from "../invocation.ts"
import { ToolTesterError } from "../../errors.ts"
import { findOpencode, resolveOpencode } from "../../opencode/opencode-binary.ts"
import { MODELLED_OPENCODE_VERSION } from "../../opencode/opencode-version.ts"
import { opencodeVersionOf } from "../../opencode/opencode-version-check.ts"
import { helpTimeoutMs, opencodeIdentity } from "../../opencode/opencode-identity.ts"
import { readProbeSets } from "../../verify/probe-set.ts"
import { runVerify } from "../../verify/run-verify.ts"
import { formatVerifyReport, type VerifyReport, verifyReport } from "../../verify/verify-report.ts"
import type { CliIO } from "../_command.ts"
import { parseFlags, reportFailure } from "../_command.ts"
import { EXIT_OK, EXIT_VERIFY_DIFFERS, EXIT_VERIFY_INCOMPLETE } from "../exit-codes.ts"
import { interruptible } from "../interruptible.ts"
import { wholeNumberFlag } from "../number-flag.ts"
import { COMMAND_OPTIONS, parseConfigOf } from "../option-table.ts"
import { opencodeOption } from "../opencode-option.ts"

/**
 * `tool-tester verify [SET...]`: runs the probe projects shipped with tool-tester through the
 * user's opencode (scripted mock model, offline) and through tool-tester, and reports per
 * behaviour whether they agree. Exit 0 when everything agrees, 9 when something differs, 10 when
 * nothing differs but a probe run could not be compared (a side failed to start or crashed).
 */
export async function verifyCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(
    { args: argv, options: parseConfigOf(COMMAND_OPTIONS.verify), allowPositionals: true },
    { command: "verify", run: toolTesterCommand(io) },
  )
  const json = values.json === true
  const concurrency =
    values.concurrency === undefined ? undefined : wholeNumberFlag("--concurrency", values.concurrency)
  const probes = readProbeSets(positionals)
  const opencode =
    values.opencode === undefined
      ? installedOpencode(io)
      : await resolveOpencode({ directory: io.cwd, env: io.env, opencode: opencodeOption(io.cwd, values.opencode) })
  const [version, identity] = await Promise.all([opencodeVersionOf(opencode), opencodeIdentity(opencode)])
  if (version === undefined || identity !== "opencode") {
    const why = [
      identity === "other" ? ["its --help lists no `opencode run`"] : [],
      identity === "silent" ? [`its --help did not answer within ${helpTimeoutMs / 1000} s`] : [],
      version === undefined ? ["its --version prints no version"] : [],
    ].flat()
    throw new ToolTesterError(
      "OPENCODE_FAILED",
      `${opencode} is not an opencode binary (${why.join(", ")}). Pass opencode's binary with --opencode PATH.`,
      { data: { path: opencode } },
    )
  }

  const total = probes.reduce((sum, probe) => sum + probe.runs.length, 0)
  const verified = await interruptible(
    io,
    json,
    "interrupted: opencode was stopped and its folders removed",
    ({ signal, progress }) => {
      progress.phase(`verify: ${total} probe runs through opencode ${version} and tool-tester`)
      return runVerify({
        opencode,
        probes,
        // tool-tester's side runs the tools in this opencode's own Bun, as opencode does: against
        // another Bun (the one on PATH, tool-tester's own) a Bun difference would read as tool-tester's.
        engineBinary: opencode,
        signal,
        ...(concurrency === undefined ? {} : { concurrency }),
        onRun: ({ done, differing, failed, last }) =>
          progress.phase(
            `verify: ${done}/${total} probe runs done (${differing} differ${failed > 0 ? `, ${failed} failed` : ""}), last ${last}`,
          ),
      })
    },
  )
  if ("exitCode" in verified) return verified.exitCode
  const { checks, failed, ...timings } = verified.value
  return printVerifyReport(
    io,
    json,
    verifyReport(checks, { binary: opencode, version }, MODELLED_OPENCODE_VERSION, timings, failed),
  )
}

/**
 * Prints the report (text or JSON) and returns the exit code: 0 when all agree; 9 after a failure
 * line naming the behaviours when something differs; else 10 after one naming the runs not compared.
 */
export function printVerifyReport(io: CliIO, json: boolean, report: VerifyReport): number {
  const version = report.opencode.version
  io.write(json ? `${JSON.stringify(report, null, 2)}\n` : formatVerifyReport(report))
  if (report.agree) return EXIT_OK
  if (report.differences.length === 0) {
    reportFailure(io, json, { code: "VERIFY_INCOMPLETE", message: notCompared(io, json, report) })
    return EXIT_VERIFY_INCOMPLETE
  }
  reportFailure(io, json, {
    code: "VERIFY_DIFFERS",
    message: `tool-tester and opencode ${version} differ in ${report.behaviours
      .filter((entry) => entry.differ > 0)
      .map((entry) => entry.behaviour)
      .join(
        ", ",
      )}: see ${json ? "the report's differences on stdout" : "the differences above"}; ${whatToDo(io, report)}${
      report.failedRuns.length === 0 ? "" : `. Also ${notCompared(io, json, report)}`
    }`,
  })
  return EXIT_VERIFY_DIFFERS
}

/**
 * What a difference asks of the user: against the version tool-tester models, it is tool-tester's
 * bug to report; against another, the user's opencode is the one to believe where they differ.
 */
function whatToDo(io: CliIO, report: VerifyReport): string {
  if (report.opencode.version === report.modelledVersion) {
    return `tool-tester models this very version, so that is tool-tester's bug: please report it with verify --json's differences (${ISSUES_URL})`
  }
  // e2e needs a script: --init writes one calling each tool and prints the command that runs it in that opencode.
  const e2e = `${toolTesterCommand(io)} e2e --init --opencode ${shellWord(report.opencode.binary)}`
  return `there, trust your opencode (${e2e} writes a script calling each of your tools and prints the command that runs it there), or use opencode ${report.modelledVersion}, the version tool-tester models`
}

/** The runs not compared, where their reasons are, and the command that runs their sets again. */
function notCompared(io: CliIO, json: boolean, report: VerifyReport): string {
  const failed = report.failedRuns
  const total = report.timings?.runs.length
  const runs = failed.map((entry) => `${entry.set}/${entry.run} (${entry.side}: ${entry.code})`)
  const shown = runs.length > 3 ? [...runs.slice(0, 3), `${runs.length - 3} more`] : runs
  const sets = [...new Set(failed.map((entry) => entry.set))]
  const again = `${toolTesterCommand(io)} verify ${sets.join(" ")} --opencode ${shellWord(report.opencode.binary)}`
  const counted =
    total === undefined ? count(failed.length, "probe run") : `${failed.length} of ${count(total, "probe run")}`
  return `${counted} could not be compared, a side failed to start or crashed: ${shown.join(", ")}; see ${
    json ? "the report's failedRuns on stdout" : "the reasons above"
  }, fix what they name, then run those sets again (${again})`
}

/** Where tool-tester's bugs are reported (package.json's "bugs"). */
const ISSUES_URL = "https://github.com/opencode-tool-kit/opencode-tool-kit/issues"

// --- internal ---

/**
 * The user's opencode, which verify checks tool-tester against: installed in the project, beside
 * tool-tester, or on PATH. None: OPENCODE_NOT_FOUND with verify's own ways out (it has no
 * --opencode-version: a download would verify tool-tester against its own copy, not the user's).
 */
function installedOpencode(io: CliIO): string {
  const found = findOpencode({ directory: io.cwd, env: io.env })
  if (found !== undefined) return found
  throw new ToolTesterError(
    "OPENCODE_NOT_FOUND",
    "No opencode binary found (in this project's node_modules, beside tool-tester, or on PATH): verify checks tool-tester against your opencode, so pass its binary with --opencode PATH, or install opencode on PATH (npm install -g opencode-ai).",
  )
}
