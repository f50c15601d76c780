import { type BigIntStats, writeFileSync } from "node:fs"
import path from "node:path"
import { starterScript } from "../../e2e/starter-script.ts"
import { chooseEngine, chooseEngineNow, nothingFound } from "../../engine-client/choose-engine.ts"
import { cachedOpencode, findOpencode, testedOpencodeVersion } from "../../opencode/opencode-binary.ts"
import { ToolTesterError } from "../../errors.ts"
import { modelSelection } from "../../pipeline/model-selection.ts"
import { startEngine } from "../../tasks/engine-task.ts"
import type { SchemaPayload } from "../../tasks/schema-task.ts"
import type { Diagnostic } from "../../types.ts"
import { lstatOf, statOf } from "../../_file-stats.ts"
import type { CliIO } from "../_command.ts"
import { performTask } from "../_command.ts"
import { EXIT_OK } from "../exit-codes.ts"
import { shellWord } from "../../_shell-quote.ts"
import { carriedFlags } from "../carried-flags.ts"
import { printedPath } from "../printed-path.ts"
import { toolTesterCommand } from "../invocation.ts"
import { projectDirectory } from "../project-directory.ts"

/** The default file `e2e --init` writes, in the working folder. */
export const STARTER_SCRIPT_FILE = "e2e.json"

/**
 * `tool-tester e2e --init [--script FILE]`: writes a starter script that calls each custom and
 * plugin tool once. Never overwrites a file; writes nothing when a tool file fails to load.
 */
export async function writeStarterScript(
  values: {
    dir?: string | undefined
    plugin?: string[] | undefined
    script?: string | undefined
    json?: boolean | undefined
    opencode?: string | undefined
    "opencode-version"?: string | undefined
    [option: string]: unknown
  },
  io: CliIO,
): Promise<number> {
  const json = values.json === true
  const file = path.resolve(io.cwd, values.script ?? STARTER_SCRIPT_FILE)
  scriptFileProblem(file)
  const project = projectDirectory(io.cwd, values.dir)
  if (project.notice && !json) io.writeError(`${project.notice}\n`)
  const plugins = (values.plugin ?? []).map((spec) => (spec.startsWith(".") ? path.resolve(io.cwd, spec) : spec))
  // The tools load only to read their schemas. With no opencode or Bun here that happens on Node,
  // under a notice of its own: e2e has no --engine flag.
  const chosen = chooseEngineNow({ env: io.env, directory: project.directory })
  if (chosen?.notice && !json) {
    io.writeError(`tool-tester: ${nothingFound(io.env)}, so the tools were loaded on Node to read their arguments\n`)
  }
  const selection = chosen?.selection ?? (await chooseEngine({ env: io.env, directory: project.directory })).selection
  // As `schema` loads them: within the load bound, their console kept off this command's output
  // (stdout stays one JSON document with --json). No global tools: e2e runs opencode with a home of its own.
  const input = { directory: project.directory, global: false, plugins, model: modelSelection({}), tool: undefined }
  const task = await performTask<SchemaPayload>(
    io,
    json,
    { command: "schema", input },
    startEngine("schema", selection),
  )
  if (task.exitCode !== undefined) return task.exitCode
  {
    const failed = task.payload.diagnostics.find(
      (diagnostic): diagnostic is Diagnostic => diagnostic.severity === "error" && diagnostic.code !== "SCHEMA_CUT",
    )
    if (failed) {
      // Only loading's codes reach here (AGENT_FALLBACK, UNKNOWN_ARGUMENT and MISSING_ARGUMENT are run's warnings).
      const code =
        failed.code === "IGNORED_EXPORT" ||
        failed.code === "NO_TOOLS" ||
        failed.code === "AGENT_FALLBACK" ||
        failed.code === "UNKNOWN_ARGUMENT" ||
        failed.code === "MISSING_ARGUMENT"
          ? "IMPORT_FAILED"
          : failed.code
      throw new ToolTesterError(code, `${failed.message}; fix it first (no script written)`)
    }
    const schemas = { value: task.payload.tools }
    if (schemas.value.length === 0) {
      throw new ToolTesterError(
        "USAGE",
        `no custom or plugin tool in ${project.directory}: nothing to script (add one with npm create tool)`,
      )
    }
    const script = starterScript(schemas.value)
    try {
      writeFileSync(file, `${JSON.stringify(script, null, 2)}\n`, { flag: "wx" })
    } catch (error) {
      // Something appeared there, or the folder went, while the tools loaded.
      throw new ToolTesterError(
        "USAGE",
        `${file} cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)}): give --script a new file in a folder you can write`,
        { data: { file } },
      )
    }
    const tools = schemas.value.map((schema) => schema.name)
    const shown = printedPath(io.cwd, file)
    if (json) io.write(`${JSON.stringify({ script: file, tools })}\n`)
    else {
      // With no opencode here, the command that runs the script downloads the tested one (once).
      const download =
        values.opencode === undefined &&
        values["opencode-version"] === undefined &&
        findOpencode({ directory: project.directory, env: io.env }) === undefined
          ? ` --opencode-version ${testedOpencodeVersion}`
          : ""
      // The project and plugins as given, so that the line runs the same tools where it was typed.
      const same = [
        ...(values.dir === undefined ? [] : ["--dir", values.dir]),
        ...(values.plugin ?? []).flatMap((spec) => ["--plugin", spec]),
      ]
      // And the run's options given beside --init (--model, --timeout, ...): they apply to that run.
      const carried = carriedFlags(values, ["init", "script", "dir", "plugin", "json"])
      const flags = `${same.map((word) => ` ${shellWord(word)}`).join("")}${carried}`
      io.write(
        `Wrote ${shown}: one call to ${tools.length === 1 ? "" : "each of "}${tools.join(", ")}, with example arguments to edit.\nRun it: ${toolTesterCommand(io)} e2e --script ${shellWord(shown)}${flags}${download}\n`,
      )
      if (download)
        io.write(
          cachedOpencode(testedOpencodeVersion) === undefined
            ? `(no opencode found here: --opencode-version downloads opencode ${testedOpencodeVersion} into tool-tester's cache, once, about 180 MB)\n`
            : `(no opencode found here: --opencode-version runs opencode ${testedOpencodeVersion} from tool-tester's cache, where it is already)\n`,
        )
    }
    return EXIT_OK
  }
}

// --- internal ---

/**
 * Refuses, before any tool loads, a --script path e2e --init could not write: one that exists (a
 * link that leads nowhere too, whose target the write would create), or whose folder is missing
 * or not a folder.
 */
function scriptFileProblem(file: string): void {
  const refuse = (problem: string) =>
    new ToolTesterError("USAGE", `${file} ${problem}`, {
      data: { file },
    })
  const existing = statsOr(() => lstatOf(file))
  if (existing !== undefined) {
    throw refuse(
      existing.isSymbolicLink()
        ? "is a link already: give --script another file name, or remove it first"
        : "exists already: give --script another file name, or remove it first",
    )
  }
  const folder = path.dirname(file)
  const parent = statsOr(() => statOf(folder))
  if (parent === undefined || !parent.isDirectory()) {
    throw refuse(`cannot be written: ${folder} is not a folder; create it, or give --script a file in one`)
  }
}

function statsOr(read: () => BigIntStats): BigIntStats | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}
