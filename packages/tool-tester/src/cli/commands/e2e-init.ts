import { existsSync, writeFileSync } from "node:fs"
import path from "node:path"
import { starterScript } from "../../e2e/starter-script.ts"
import { chooseEngineNow } from "../../engine-client/choose-engine.ts"
import { findOpencode, testedOpencodeVersion } from "../../opencode/opencode-binary.ts"
import { ToolTesterError } from "../../errors.ts"
import { getToolSchemas } from "../../list-tools.ts"
import { loadTools } from "../../load-tools.ts"
import { closeProject } from "../../run-tool.ts"
import type { CliIO } from "../_command.ts"
import { EXIT_OK } from "../exit-codes.ts"
import { shellWord } from "../../_shell-quote.ts"
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
  },
  io: CliIO,
): Promise<number> {
  const json = values.json === true
  const file = path.resolve(io.cwd, values.script ?? STARTER_SCRIPT_FILE)
  if (existsSync(file)) {
    throw new ToolTesterError("USAGE", `${file} exists already: give --script another file name, or remove it first`, {
      data: { file },
    })
  }
  const project = projectDirectory(io.cwd, values.dir)
  if (project.notice && !json) io.writeError(`${project.notice}\n`)
  const plugins = (values.plugin ?? []).map((spec) => (spec.startsWith(".") ? path.resolve(io.cwd, spec) : spec))
  // The tools load only to read their schemas. With no opencode or Bun here that happens on Node,
  // under a notice of its own: loadTools()'s names its option, and e2e has no --engine flag.
  const chosen = chooseEngineNow({ env: io.env, directory: project.directory })
  if (chosen?.notice && !json) {
    io.writeError("tool-tester: no opencode or Bun found, so the tools were loaded on Node to read their arguments\n")
  }
  // No global tools: e2e runs opencode with a home of its own.
  const loaded = await loadTools({
    directory: project.directory,
    plugins,
    global: false,
    engine: chosen?.selection.name ?? "bun",
  })
  try {
    const failed = loaded.diagnostics.find((diagnostic) => diagnostic.severity === "error")
    if (failed) {
      // Only loading's codes reach here (AGENT_FALLBACK is run's warning).
      const code =
        failed.code === "IGNORED_EXPORT" || failed.code === "NO_TOOLS" || failed.code === "AGENT_FALLBACK"
          ? "IMPORT_FAILED"
          : failed.code
      throw new ToolTesterError(code, `${failed.message}; fix it first (no script written)`)
    }
    const schemas = await getToolSchemas(loaded)
    if (!schemas.success) throw schemas.error
    if (schemas.value.length === 0) {
      throw new ToolTesterError(
        "USAGE",
        `no custom or plugin tool in ${project.directory}: nothing to script (add one with npm create tool)`,
      )
    }
    const script = starterScript(schemas.value)
    writeFileSync(file, `${JSON.stringify(script, null, 2)}\n`, { flag: "wx" })
    const tools = schemas.value.map((schema) => schema.name)
    const shown = path.relative(io.cwd, file) || file
    if (json) io.write(`${JSON.stringify({ script: file, tools })}\n`)
    else {
      // With no opencode here, the command that runs the script downloads the tested one (once).
      const download =
        findOpencode({ directory: project.directory, env: io.env }) === undefined
          ? ` --opencode-version ${testedOpencodeVersion}`
          : ""
      // The project and plugins as given, so that the line runs the same tools where it was typed.
      const same = [
        ...(values.dir === undefined ? [] : ["--dir", values.dir]),
        ...(values.plugin ?? []).flatMap((spec) => ["--plugin", spec]),
      ]
      const flags = same.map((word) => ` ${shellWord(word)}`).join("")
      io.write(
        `Wrote ${shown}: one call to ${tools.length === 1 ? "" : "each of "}${tools.join(", ")}, with example arguments to edit.\nRun it: ${toolTesterCommand(io)} e2e --script ${shellWord(shown)}${flags}${download}\n`,
      )
      if (download)
        io.write(
          `(no opencode found here: --opencode-version downloads opencode ${testedOpencodeVersion} into tool-tester's cache, once, about 180 MB)\n`,
        )
    }
    return EXIT_OK
  } finally {
    closeProject(loaded)
  }
}
