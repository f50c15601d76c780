import { exampleCommand } from "./invocation.ts"
import { createRequire } from "node:module"
import { realpathSync } from "node:fs"
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path"
import { red, setColor, shouldColor, yellow } from "./_color.ts"
import { definedFields } from "./_defined-fields.ts"
import { CreateToolError } from "./errors.ts"
import { globalConfigDirectory } from "./global-directory.ts"
import { nextSteps } from "./next-steps.ts"
import { packageManagerFromUserAgent } from "./package-manager.ts"
import type { ScaffoldOptions } from "./options.ts"
import { runsGeneratedTests, testNodeVersions } from "./package-json-for.ts"
import { type CliArguments, helpMessage, parseArguments } from "./parse-args.ts"
import { planScaffold } from "./plan.ts"
import { printable } from "./printable.ts"
import { type Answers, askQuestions, confirm } from "./questions.ts"
import { caseCollisionError, duplicateToolIdError, scaffold } from "./scaffold.ts"
import { displayPath, formatSummary } from "./summary.ts"
import { findTemplatesDirectory, listTemplates } from "./templates.ts"

// argv -> (questions, in a terminal) -> scaffold() -> summary and exit code, given a CliIO: the
// bin (cli.ts) hands it the process's arguments, environment and streams, and tests run it
// in-process with their own (test/helpers.ts). Only questions (prompts) read the terminal itself.

/** What a command line runs with: the process's, for the bin. */
export type CliIO = {
  argv: readonly string[]
  env: Record<string, string | undefined>
  /** Where the command was typed. */
  cwd: string
  /** The user's home folder (os.homedir() for the bin). */
  home: string
  /** Both stdin and stdout are a terminal: questions can be asked. */
  terminal: boolean
  /** stdout is a terminal: the summary is coloured (unless NO_COLOR and the like say otherwise). */
  stdoutIsTTY: boolean
  write: (text: string) => void
  writeError: (text: string) => void
}

/** Runs one command line; resolves to its exit code (0, or 1 with one line on stderr). */
export async function runCommandLine(io: CliIO): Promise<number> {
  setColor(shouldColor({ isTTY: io.stdoutIsTTY, json: false, env: io.env }))
  try {
    await main(io)
    return 0
  } catch (error) {
    return reportFailure(io, error)
  }
}

// --- internal ---

async function main(io: CliIO): Promise<void> {
  let args = parseArguments([...io.argv], io.env)
  const templatesDirectory = findTemplatesDirectory()
  if (args.help) {
    const templates = await listTemplates(templatesDirectory)
    const list = templates.map((template) => `  ${template.name.padEnd(20)}${template.summary}`).join("\n")
    io.write(`${helpMessage.replace("TEMPLATES", list)}\n`)
    return
  }
  if (args.version) {
    const { version } = createRequire(import.meta.url)("../package.json") as { version: string }
    io.write(`create-tool ${version}\n`)
    return
  }

  // Options npm's config set, not taken as typed (parse-args.ts): said where they would change the
  // run, --force only where there is something to overwrite or replace.
  const npmConfigNote = (note: { text: string }) => io.writeError(`${yellow("!")} ${printable(note.text)}\n`)
  args.npmConfigNotes.filter((note) => note.option !== "force").forEach(npmConfigNote)

  const cwd = io.cwd
  const directory = resolve(cwd, args.dir ?? ".")
  // Typed inside a project's .opencode folder (or a folder in it), the tool goes in that project's
  // .opencode/tools, which opencode reads, not in a .opencode/.opencode it never does; as tool-tester
  // does there (docs/cli.md#running-from-opencode). --dir says where otherwise (--dir . for here).
  const around = args.dir === undefined ? projectAround(cwd) : undefined
  const projectDirectory = around ?? directory
  const globalDirectory = globalConfigDirectory(io.env, io.home)
  // Typed inside opencode's global config folder, the tool goes in its tools/, as with --global:
  // a .opencode folder in there is one opencode never reads.
  const inGlobal =
    args.dir === undefined &&
    around === undefined &&
    !args.plugin &&
    !args.global &&
    isAbsolute(globalDirectory) &&
    isWithin(cwd, globalDirectory)
  if (inGlobal) args = { ...args, global: true }
  const interactive = args.interactive ?? io.terminal
  const answers = interactive
    ? await askQuestions(args, {
        templates: await listTemplates(templatesDirectory),
        directory,
        projectDirectory,
        globalDirectory,
      })
    : defaultAnswers(args, io.env)

  if (answers.location === "global" && !isAbsolute(globalDirectory)) {
    throw new CreateToolError(
      "USAGE",
      `XDG_CONFIG_HOME is ${JSON.stringify(io.env["XDG_CONFIG_HOME"])}, a relative path, which names no one folder (each program would read it from where it runs). Set XDG_CONFIG_HOME to an absolute path, or unset it for ~/.config.`,
      { data: { variable: "XDG_CONFIG_HOME" } },
    )
  }
  // The commands printed and written in the generated files are this package manager's.
  const packageManager = packageManagerFromUserAgent(io.env["npm_config_user_agent"])
  const options: ScaffoldOptions = {
    name: answers.name,
    location: answers.location,
    directory: answers.location === "project" ? projectDirectory : directory,
    globalDirectory,
    template: answers.template,
    language: answers.language,
    test: answers.test,
    overwrite: args.force,
    overrideBuiltin: args.force,
    templatesDirectory,
    packageManager,
    ...definedFields({ toolName: answers.toolName, exports: answers.exports, description: answers.description }),
  }
  const plan = await planScaffold(options)
  if (plan.existingFiles.length > 0 || plan.builtinOverrides.length > 0) {
    args.npmConfigNotes.filter((note) => note.option === "force").forEach(npmConfigNote)
  }
  // Refused whatever the answers: no point asking about built-ins or overwriting first.
  const duplicate = duplicateToolIdError(plan) ?? caseCollisionError(plan)
  if (duplicate !== undefined) throw duplicate
  const notes: string[] = []
  if (inGlobal && answers.location === "global") {
    notes.push(
      `${printable(cwd)} is in opencode's global config folder ${printable(globalDirectory)}, so the tool went in ${printable(join(globalDirectory, "tools"))}, as with --global, where opencode reads it in every project; pass --dir . to make ${printable(cwd)} a project instead.`,
    )
  }
  if (around !== undefined && answers.location === "project") {
    notes.push(
      `${printable(cwd)} is in the .opencode folder of the project ${printable(around)}, so the tool went in ${printable(join(around, ".opencode", "tools"))}, where opencode reads it; pass --dir . to make ${printable(cwd)} the project instead.`,
    )
  }
  if (plan.builtinOverrides.length > 0) {
    const ids = plan.builtinOverrides.join(", ")
    if (!args.force && interactive) {
      const replace = await confirm(`${ids} would replace opencode's built-in tool of that name. Replace it?`)
      if (!replace) throw new CreateToolError("CANCELLED", "Operation cancelled")
      options.overrideBuiltin = true
    }
    notes.push(`${ids} replaces opencode's built-in tool of that name in every session that loads it.`)
  }
  if (plan.existingFiles.length > 0 && !args.force && interactive) {
    const paths = plan.existingFiles.map((path) => displayPath(path, cwd))
    const listed = paths.length > 3 ? `${paths.slice(0, 3).join(", ")} and ${paths.length - 3} more` : paths.join(", ")
    const overwrite = await confirm(`${listed} ${paths.length === 1 ? "exists" : "exist"} already. Overwrite?`)
    if (!overwrite) throw new CreateToolError("CANCELLED", "Operation cancelled")
    options.overwrite = true
  }

  const result = await scaffold(options)
  if (result.test && !runsGeneratedTests(process.versions.node)) {
    notes.push(
      `The test needs Node.js ${testNodeVersions} (vitest 4), and this is Node.js ${process.versions.node}: update Node.js before running it.`,
    )
  }
  result.notes.unshift(...notes)
  const steps = nextSteps(result, { packageManager, cwd })
  io.write(formatSummary(result, steps, cwd))
}

/**
 * The project a folder belongs to when it is a `.opencode` folder or inside one: the folder holding
 * the nearest `.opencode` (past a `.opencode` inside a `.opencode`). Undefined elsewhere.
 */
/** Whether `folder` is `parent` or inside it, links resolved. */
function isWithin(folder: string, parent: string): boolean {
  const real = (path: string) => {
    try {
      return realpathSync(path)
    } catch {
      return resolve(path)
    }
  }
  const inside = relative(real(parent), real(folder))
  return inside === "" || (!inside.startsWith("..") && !isAbsolute(inside))
}

function projectAround(cwd: string): string | undefined {
  for (let folder = resolve(cwd); ; folder = dirname(folder)) {
    if (basename(folder) === ".opencode") {
      let project = dirname(folder)
      while (basename(project) === ".opencode") project = dirname(project)
      return project
    }
    if (dirname(folder) === folder) return undefined
  }
}

/** Without a terminal: documented defaults, and an error for what has none (scaffold() checks the rest). */
function defaultAnswers(args: CliArguments, env: Readonly<Record<string, string | undefined>>): Answers {
  if (args.name === undefined) {
    throw new CreateToolError(
      "MISSING_NAME",
      args.plugin
        ? `Missing the package name: pass it first, as in ${exampleCommand(env, "opencode-my-tool", "--plugin")}.`
        : `Missing the tool name: pass it first, as in ${exampleCommand(env, "my-tool")}.`,
    )
  }
  if (args.description !== undefined && args.description.trim() === "") {
    throw new CreateToolError("INVALID_DESCRIPTION", "--description is empty: say what the tool does, for the model.")
  }
  return {
    name: args.name,
    location: args.global ? "global" : args.plugin ? "plugin" : "project",
    toolName: args.toolName,
    template: args.template ?? "default",
    language: args.js ? "js" : "ts",
    exports: args.exports,
    description: args.description,
    test: args.test,
  }
}

/** The one line (or, for a bug, the stack) a failure prints, and its exit code. */
function reportFailure(io: CliIO, error: unknown): number {
  if (CreateToolError.isInstance(error)) {
    if (error.code === "CANCELLED") {
      // As create-vite: nothing was written and the user knows why, so no error exit for npm to report.
      io.write(`${red("✖")} Operation cancelled\n`)
      return 0
    }
    // The messages already show user input escaped; printable() again keeps any message on one line
    // and the terminal in the state it was, whatever its origin.
    io.writeError(`${red("✖")} ${printable(error.message)} ${yellow(`[${error.code}]`)}\n`)
    return 1
  }
  const stack = ((error as Error)?.stack ?? String(error)).split("\n").map(printable).join("\n")
  io.writeError(`${red("✖")} Unexpected error, please report it:\n${stack}\n`)
  return 1
}
