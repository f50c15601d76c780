import { toolTesterCommand } from "../invocation.ts"
import path from "node:path"
import { folderProblem } from "../../_folder-problem.ts"
import { terminalSafe } from "../../_terminal-safe.ts"
import { chooseEngine } from "../../engine-client/choose-engine.ts"
import { ToolTesterError } from "../../errors.ts"
import { requireExtras } from "../../extras.ts"
import { cachedOpencode, findOpencode, testedOpencodeVersion } from "../../opencode/opencode-binary.ts"
import { opencodePackageNames } from "../../opencode/opencode-packages.ts"
import { PACKAGE_MANAGERS, packageManagerThatInstalled } from "../../package-manager.ts"
import { definedFields } from "../../_defined-fields.ts"
import type { E2ESummary, SmokeRun } from "../../preflight/load-installed.ts"
import { loadInstalled } from "../../preflight/load-installed.ts"
import type { PreflightReport } from "../../preflight/preflight.ts"
import { preflight } from "../../preflight/preflight.ts"
import type { EngineReport } from "../../tasks/task-failure.ts"
import { bold, cyan, dim, green, red } from "../_color.ts"
import type { CliIO } from "../_command.ts"
import { exitForProblems, parseFlags } from "../_command.ts"
import { interruptible } from "../interruptible.ts"
import { timeoutFlag } from "../number-flag.ts"
import { COMMAND_OPTIONS, parseConfigOf } from "../option-table.ts"
import { formatEngine, formatFindings } from "../report.ts"
import { count } from "../../_count.ts"

const DEFAULT_CALL_TIMEOUT_MS = 10_000
/**
 * Ten minutes for `npm pack` and again for `npm install`: room for a prepack that builds on a slow
 * CI machine, and for an install from a slow registry (npm itself waits up to 5 minutes for one
 * request, its fetch-timeout, and retries), yet a script that never ends no longer holds preflight
 * (and the `npm publish` whose prepublishOnly runs it) for ever.
 */
const DEFAULT_NPM_TIMEOUT_MS = 600_000

/**
 * `tool-tester preflight [DIR]`: the plugin package in DIR packed as npm publishes it, installed as
 * opencode installs a plugin named in opencode.json, loaded by name from there and each tool called
 * once; every reason users would get no tools (or broken ones) is a finding. Exit 3 when one is an error.
 */
export async function preflightCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(
    { args: argv, options: parseConfigOf(COMMAND_OPTIONS.preflight), allowPositionals: true },
    { command: "preflight", run: toolTesterCommand(io) },
  )
  const json = values.json === true
  if (positionals.length > 1)
    throw new ToolTesterError("USAGE", `preflight takes one package folder, not ${positionals.length}`)
  const directory = path.resolve(io.cwd, positionals[0] ?? ".")
  const problem = folderProblem(directory)
  if (problem !== undefined) {
    throw new ToolTesterError("PATH_NOT_FOUND", `${directory} ${problem}; pass the plugin package's folder`, {
      data: { directory },
    })
  }
  requireExtras("preflight", { cwd: io.cwd, env: io.env })
  // Found before packing, which takes minutes: the binary the bun engine would use too.
  const opencode = values.e2e === true ? e2eOpencode(directory, io.env) : undefined
  const timeoutMs =
    (values.timeout === undefined ? undefined : timeoutFlag("--timeout", values.timeout)) ?? DEFAULT_CALL_TIMEOUT_MS
  const npmTimeoutMs =
    values["npm-timeout"] === undefined ? DEFAULT_NPM_TIMEOUT_MS : timeoutFlag("--npm-timeout", values["npm-timeout"])
  const chosen = await chooseEngine({
    engine: values.engine,
    engineBinary: values["engine-binary"],
    env: io.env,
    cwd: io.cwd,
    directory,
  })
  if (chosen.notice && !json) io.writeError(`${chosen.notice}\n`)
  // Ctrl-C ends what runs at once (npm and its scripts, the engine, opencode); the temporary folders are removed before the CLI exits.
  let engine: EngineReport | undefined
  const outcome = await interruptible(
    io,
    json,
    "interrupted: preflight stopped and removed its folders",
    ({ signal, progress }) =>
      preflight({
        directory,
        env: io.env,
        runScripts: values["run-scripts"] === true,
        npmTimeoutMs,
        opencodeVersion: testedOpencodeVersion,
        onStep: progress.phase,
        signal,
        loadInstalled: async (installed) => {
          const loaded = await loadInstalled(installed, {
            selection: chosen.selection,
            timeoutMs,
            e2e: values.e2e === true,
            ...definedFields({ opencode }),
            onStep: progress.phase,
            signal,
            pluginPath: pluginPathFrom(io.cwd, directory),
          })
          engine = loaded.engine
          return loaded
        },
      }),
  )
  if ("exitCode" in outcome) return outcome.exitCode
  const report: PreflightReport = outcome.value
  if (json) io.write(`${JSON.stringify({ ...report, engine: engine?.info ?? null })}\n`)
  else {
    io.write(formatReport(report, io.cwd))
    if (engine) io.writeError(formatEngine(engine))
  }
  return exitForProblems(io, json, report.findings)
}

// --- internal ---

/**
 * The opencode binary --e2e runs: the package's (or tool-tester's) platform package, opencode on
 * PATH, or the tested version in tool-tester's cache. None: OPENCODE_NOT_FOUND with a way to get
 * one that preflight takes (it has no --opencode or --opencode-version, unlike e2e), added to the
 * package with the package manager that installed it.
 */
function e2eOpencode(directory: string, env: Record<string, string | undefined>): string {
  const found = findOpencode({ directory, env }) ?? cachedOpencode(testedOpencodeVersion)
  if (found !== undefined) return found
  const [packageName] = opencodePackageNames()
  const add = PACKAGE_MANAGERS[packageManagerThatInstalled(directory)].addDev(
    undefined,
    `${packageName}@${testedOpencodeVersion}`,
  )
  throw new ToolTesterError(
    "OPENCODE_NOT_FOUND",
    `--e2e runs the real opencode, and no opencode binary was found (in ${directory}'s node_modules, beside tool-tester, on PATH or in tool-tester's cache): add it to the package with \`${add}\` run in its folder, or install opencode on PATH (npm install -g opencode-ai)`,
    { data: { directory } },
  )
}

function formatReport(report: PreflightReport, cwd: string): string {
  const { package: packed } = report
  const lines: string[] = []
  const name = packed.name === null ? "(no name)" : `${packed.name}${packed.version ? `@${packed.version}` : ""}`
  lines.push(`${bold(cyan(terminalSafe(name)))}  ${dim(terminalSafe(packed.directory))}`)
  if (packed.packer) {
    lines.push(
      `${dim("packed ")} ${count(packed.files.length, "file")} with ${packed.packer}: ${terminalSafe(shortList(packed.files))}`,
    )
  }
  if (packed.entry) lines.push(`${dim("entry  ")} ${terminalSafe(packed.entry.file)} ${dim(`(${packed.entry.field})`)}`)
  if (report.tools.length > 0) lines.push(`${dim("tools  ")} ${terminalSafe(report.tools.join(", "))}`)
  for (const run of report.runs as SmokeRun[]) {
    const status =
      run.status === "completed" ? green("completed") : red(`error${run.error ? ` ${run.error.code}` : ""}`)
    const args = JSON.stringify(run.args) ?? "undefined"
    lines.push(
      `${dim("call   ")} ${terminalSafe(run.tool)} ${dim(terminalSafe(args.length > 80 ? `${args.slice(0, 77)}...` : args))} ${status}`,
    )
  }
  const e2e = report.e2e as E2ESummary | undefined
  for (const call of e2e?.calls ?? []) {
    const status =
      call.ran !== null && call.ran !== call.tool
        ? red(`rerouted to ${terminalSafe(call.ran)}`)
        : call.status === "completed"
          ? green("completed")
          : red(call.status ?? "no result")
    lines.push(`${dim("opencode")} ${terminalSafe(call.tool)} ${status}`)
  }
  lines.push("")
  const findings = formatFindings(report.findings, { files: packed.files.length, tools: report.tools.length }, cwd)
  return `${lines.join("\n")}\n${findings.replace(/\(\d+ tool files?, /, `(${count(packed.files.length, "packed file")}, `)}`
}

/**
 * The package folder as a `--plugin` path the printed commands can give from where preflight ran:
 * `.` there, `./sub` below it (a bare `sub` would name an npm package), else the absolute folder.
 */
export function pluginPathFrom(cwd: string, directory: string): string {
  const relative = path.relative(cwd, directory)
  if (relative === "") return "."
  if (path.isAbsolute(relative) || relative === ".." || relative.startsWith(`..${path.sep}`)) return directory
  return `.${path.sep}${relative}`
}

function shortList(files: string[]): string {
  const shown = files.slice(0, 6).join(", ")
  return files.length > 6 ? `${shown}, ... (${files.length - 6} more)` : shown
}
