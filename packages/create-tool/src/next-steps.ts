import { isAbsolute, relative } from "node:path"
import { configFolderPackageManager } from "./config-folder-manager.ts"
import { portablePath, type Shell, shellWord, userShell } from "./_shell-quote.ts"
import { commandsFor, type PackageManagerInfo, projectCommandsFor } from "./package-manager.ts"
import { printable } from "./printable.ts"
import type { ScaffoldResult } from "./scaffold.ts"
import type { YarnProject } from "./yarn-project.ts"

// The commands printed after scaffolding, for the package manager that ran create-tool.

export type NextStepsOptions = {
  packageManager: PackageManagerInfo
  /** The folder the commands are run from: paths are printed relative to it. */
  cwd: string
  /** The shell the commands are written for (default: the user's, `userShell()`). */
  shell?: Shell
}

export type NextSteps = {
  /** Shell commands, in order. */
  commands: string[]
  /** One sentence on using the tool in opencode. */
  hint: string
}

export function nextSteps(result: ScaffoldResult, options: NextStepsOptions): NextSteps {
  // npm's commands for a config folder when pnpm ran create-tool, pnpm's where pnpm installed it
  // (config-folder-manager.ts).
  const packageManager = configFolderPackageManager(options.packageManager, result.location, result.root)
  if (result.location === "project") {
    return { commands: projectCommands(result, { ...options, packageManager }), hint: hintFor(result) }
  }
  if (result.yarnProject?.workspace === true && packageManager.name === "yarn") {
    return { commands: yarnWorkspaceCommands(result, result.yarnProject, options), hint: hintFor(result) }
  }
  const manager = commandsFor(packageManager, result.testScript)
  const shell = options.shell ?? userShell()
  const commands: string[] = []
  const folder = cdTarget(options.cwd, result.root)
  if (folder !== "") commands.push(`cd ${shellWord(folder, shell)}`)
  if ("setup" in manager && manager.setup !== undefined) commands.push(manager.setup)
  commands.push(manager.install)
  if (result.test) commands.push(manager.test)
  else if (result.location === "plugin" && result.language === "ts") commands.push(`${manager.run} build`)
  // npx by the scoped name runs the installed bin; by the unscoped one it would fetch whatever
  // package holds that name when the install is missing.
  const installed = manager.exec === "npx" ? "npx @opencode-ai/tool-tester" : `${manager.exec} tool-tester`
  const toolTester = result.test ? installed : `${manager.dlx} @opencode-ai/tool-tester`
  const where =
    result.location === "plugin"
      ? "--plugin . --dir ."
      : `--dir ${shellWord(portablePath(relative(result.root, result.directory)) || ".", shell)}`
  const [firstId] = result.toolIds
  commands.push(`${toolTester} run ${firstId} ${where} ${argumentsFor(result.template.exampleArgs, shell)}`)
  return { commands, hint: hintFor(result) }
}

// --- internal ---

/**
 * The example's arguments as `key=value` pairs when that needs no quoting in any shell (sh,
 * cmd.exe, PowerShell): string values of letters, digits and `_ . / : -`, which tool-tester reads
 * as text where the schema takes a string. Else `--args` with the JSON quoted for the user's shell.
 */
function argumentsFor(args: Record<string, unknown>, shell: Shell): string {
  const entries = Object.entries(args)
  const plain = entries.every(
    ([key, value]) => /^[A-Za-z_][\w-]*$/.test(key) && typeof value === "string" && /^[\w./:-]+$/.test(value),
  )
  if (entries.length > 0 && plain) return entries.map(([key, value]) => `${key}=${value}`).join(" ")
  return `--args ${shellWord(JSON.stringify(args), shell)}`
}

/**
 * A project's commands run from the project folder, without `cd .opencode`: tool-tester's default
 * --dir is then the project, and nothing is typed in the wrong package. npm takes the folder with
 * --prefix (npx too, which leaves the working folder where it is); pnpm with --dir, yarn with --cwd,
 * bun with --cwd after the command. pnpm, yarn and bun run the bin inside .opencode, which
 * tool-tester reads as its project. With the project elsewhere, a `cd` into it comes first.
 */
function projectCommands(result: ScaffoldResult, options: NextStepsOptions): string[] {
  const shell = options.shell ?? userShell()
  const commands: string[] = []
  const project = cdTarget(options.cwd, result.directory)
  if (project !== "") commands.push(`cd ${shellWord(project, shell)}`)
  const folder = shellWord(portablePath(relative(result.directory, result.root)), shell)
  const manager = projectCommandsFor(options.packageManager, folder, result.testScript)
  if ("setup" in manager && manager.setup !== undefined) commands.push(manager.setup)
  commands.push(manager.install)
  if (result.test) commands.push(manager.test)
  const toolTester = result.test ? `${manager.exec} tool-tester` : `${manager.dlx} @opencode-ai/tool-tester`
  const [firstId] = result.toolIds
  commands.push(`${toolTester} run ${firstId} ${argumentsFor(result.template.exampleArgs, shell)}`)
  return commands
}

/**
 * A plugin package that is a workspace of a yarn 2+ project: run from the project's folder, which
 * yarn installs as a whole, with `yarn workspace NAME` for the package's scripts and bins (run in
 * the package's folder). `yarn config set nodeLinker` in the package would have set it for the
 * whole project without saying so: here it comes only for a project on Plug'n'Play, from its folder,
 * with the note saying what it changes (yarn-project.ts).
 */
function yarnWorkspaceCommands(result: ScaffoldResult, project: YarnProject, options: NextStepsOptions): string[] {
  const shell = options.shell ?? userShell()
  const commands: string[] = []
  const folder = cdTarget(options.cwd, project.root)
  if (folder !== "") commands.push(`cd ${shellWord(folder, shell)}`)
  if (!project.nodeModules) commands.push("yarn config set nodeLinker node-modules")
  commands.push("yarn install")
  const workspace = `yarn workspace ${shellWord(result.packageName ?? result.toolName, shell)}`
  if (result.test) commands.push(`${workspace} test`)
  else if (result.language === "ts") commands.push(`${workspace} run build`)
  const [firstId] = result.toolIds
  const args = argumentsFor(result.template.exampleArgs, shell)
  if (result.test) commands.push(`${workspace} tool-tester run ${firstId} --plugin . --dir . ${args}`)
  else {
    const path = shellWord(portablePath(relative(project.root, result.root)), shell)
    commands.push(`yarn dlx @opencode-ai/tool-tester run ${firstId} --plugin ${path} --dir ${path} ${args}`)
  }
  return commands
}

/** `to` relative to `from` (with forward slashes) when it is below it or next to it, else absolute ("" when they are the same). */
function cdTarget(from: string, to: string): string {
  const path = portablePath(relative(from, to))
  if (path.startsWith("../..") || isAbsolute(path)) return to
  // `cd -weird` is an option to cd in sh and PowerShell: `./-weird` is the folder in every shell.
  return path.startsWith("-") ? `./${path}` : path
}

function hintFor(result: ScaffoldResult): string {
  const ids = result.toolIds.join(", ")
  if (result.location === "plugin") {
    return `To use it, add "${result.packageName}" to the "plugin" list of opencode.json once published, or its folder ${printable(result.root)} before (after installing and building it there). opencode will offer ${ids}.`
  }
  if (result.location === "global") return `opencode will offer ${ids} in every project.`
  return `Start opencode in ${printable(result.directory)}: it will offer ${ids}.`
}
