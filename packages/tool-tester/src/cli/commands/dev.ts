import { toolTesterCommand } from "../invocation.ts"
import { definedFields } from "../../_defined-fields.ts"
import { terminalSafe } from "../../_terminal-safe.ts"
import type { EngineChoice } from "../../runtime/here.ts"
import { chooseEngine, describeEngine, engineChoice } from "../../engine-client/choose-engine.ts"
import { runTaskInEngine, startEngine } from "../../tasks/engine-task.ts"
import { loadTimeoutMs } from "../../tasks/task-failure.ts"
import { withoutToolsMark } from "../../runtime/without-tools-mark.ts"
import { ToolTesterError } from "../../errors.ts"
import { requireExtras } from "../../extras.ts"
import { openInBrowser } from "../../inspector/open-browser.ts"
import type { DoctorPayload } from "../../tasks/doctor-task.ts"
import type { CliIO } from "../_command.ts"
import { parseFlags, projectInput } from "../_command.ts"
import { EXIT_OK } from "../exit-codes.ts"
import { timeoutFlag } from "../number-flag.ts"
import { noToolsHint, noToolsMessage } from "../report.ts"
import { pluginPackageHint } from "../plugin-package-hint.ts"
import { COMMAND_OPTIONS, parseConfigOf } from "../option-table.ts"
import { DEFAULT_TIMEOUT_MS } from "./run.ts"

/**
 * `tool-tester dev`: serves the inspector on 127.0.0.1, prints its URL (with this start's token)
 * and opens it; reloads the project on every save until Ctrl-C.
 */
export async function devCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags(
    { args: argv, options: parseConfigOf(COMMAND_OPTIONS.dev) },
    { command: "dev", run: toolTesterCommand(io) },
  )
  const json = values.json === true
  const input = projectInput(values, {}, io)
  const port = portOf(values.port)
  // As run's: the tool's abort signal fires at the bound, and the engine is stopped when it does not stop.
  const timeoutMs = values.timeout === undefined ? DEFAULT_TIMEOUT_MS : timeoutFlag("--timeout", values.timeout)
  requireExtras("dev", { cwd: io.cwd, env: io.env })
  const engine = engineChoice({ engine: values.engine, env: io.env })
  const chosen = await chooseEngine({
    engine,
    engineBinary: values["engine-binary"],
    env: io.env,
    cwd: io.cwd,
    directory: input.directory,
  })
  if (chosen.notice && !json) io.writeError(`${chosen.notice}\n`)
  const loadEngine: EngineChoice = chosen.selection.name
  const engineBinary = chosen.selection.name === "bun" ? chosen.selection.location.binary : undefined
  // dev works from the project folder, as opencode does; its engines start there too.
  io.chdir(input.directory)
  const { startInspector } = await import("../../inspector/server.ts")
  const inspector = await startInspector({
    directory: input.directory,
    global: input.global,
    plugins: input.plugins,
    engine: loadEngine,
    ...definedFields({ engineBinary }),
    cwd: io.cwd,
    timeoutMs,
    loadTimeoutMs: loadTimeoutMs(io.env),
    ...definedFields({ port }),
    // doctor runs in an engine of its own, as `tool-tester doctor` does: it needs the live tools.
    diagnose: async () => {
      const outcome = await runTaskInEngine(
        { command: "doctor", input: { ...input, cwd: io.cwd } },
        { loadTimeoutMs: loadTimeoutMs(io.env), runTimeoutMs: loadTimeoutMs(io.env), graceMs: 0 },
        startEngine("doctor", chosen.selection),
      )
      if (outcome.kind !== "done") return []
      const payload = outcome.payload as DoctorPayload
      // The findings of one call of each tool (BAD_RESULT), as `tool-tester doctor` prints them.
      const { calledFindings } = await import("../called-findings.ts")
      return [
        ...payload.findings,
        ...(await calledFindings(input, values.engine, values["engine-binary"], payload, io.cwd)),
      ]
    },
  })
  const view = inspector.session.view()
  // An engine that cannot start is no file's fault: no save brings it up. Said as list says it.
  if (view?.error?.code === "ENGINE_FAILED") {
    await inspector.close()
    throw new ToolTesterError("ENGINE_FAILED", view.error.message)
  }
  // Why the first load offers no tool (the page shows it too): a save that fixes it loads again.
  const problem = view?.error ?? view?.noTools
  // A folder that gives no custom or plugin tool at all (most often not the project's): said as
  // list and doctor say it, with a code under --json.
  const noneFound =
    view !== undefined &&
    !problem &&
    view.problems.length === 0 &&
    view.tools.every((tool) => tool.source === "builtin")
  // Errors that leave the other tools offered (a --plugin path that does not exist, a plugin that
  // throws): the page lists them, and the terminal says them too, as list does.
  const errors = problem ? [] : (view?.problems ?? []).filter((item) => item.severity === "error")
  if (json) {
    const started = {
      url: inspector.url,
      port: inspector.port,
      engine: view?.engine ?? null,
      ...(errors.length > 0 ? { errors: errors.map(({ code, message }) => ({ code, message })) } : {}),
    }
    const error =
      problem ??
      (noneFound
        ? { code: "NO_TOOLS", message: noToolsMessage(input.directory, input.global, pluginPackageHint(input, io.cwd)) }
        : undefined)
    io.write(`${JSON.stringify(error ? { ...started, error } : started)}\n`)
  } else {
    io.write(`tool-tester dev: ${inspector.url}\n`)
    const engineLine = view?.engine ? `, engine ${describeEngine(view.engine)}` : ""
    const problemLine = problem
      ? `  ${view?.error ? "not loaded" : "no tools"}: ${terminalSafe(problem.message)} [${problem.code}]; fix it and save, the page follows\n`
      : ""
    const hint = noneFound ? noToolsHint(input.directory, input.global, pluginPackageHint(input, io.cwd)) : ""
    const errorLines = errors.map((item) => `  error: ${terminalSafe(item.message)} [${item.code}]\n`).join("")
    io.writeError(
      `  ${input.directory}${engineLine}\n${problemLine}${errorLines}${hint}  reloads on save; Ctrl-C to stop\n`,
    )
  }
  // The token stays off the opener's command line (inspector/open-browser.ts).
  const opened =
    values["no-open"] !== true && !io.env["CI"] ? openInBrowser(inspector.url, withoutToolsMark(io.env)) : undefined
  await new Promise<void>((resolve) => {
    const stop = io.onInterrupt(() => {
      stop()
      resolve()
    })
  })
  opened?.remove()
  await inspector.close()
  return EXIT_OK
}

// --- internal ---

function portOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const port = Number(value)
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ToolTesterError("USAGE", `--port needs a port number from 0 to 65535, not "${value}"`)
  return port
}
