import { isAbsolute, relative } from "node:path"
import { portablePath, type Shell, shellWord, userShell } from "./_shell-quote.ts"
import { printable } from "./printable.ts"
import type { ScaffoldResult } from "./scaffold.ts"

// The commands printed after scaffolding, for the package manager that ran create-tool.

export type PackageManager = "npm" | "pnpm" | "yarn" | "bun"

/** The package manager from `npm_config_user_agent` (`pnpm/10.3.0 npm/? node/v20...`); npm when unknown. */
export function packageManagerFromUserAgent(userAgent: string | undefined): {
  name: PackageManager
  version: string | undefined
} {
  const match = /^(npm|pnpm|yarn|bun)\/(\S+)/.exec(userAgent ?? "")
  if (match === null) return { name: "npm", version: undefined }
  return { name: match[1] as PackageManager, version: match[2] }
}

export type NextStepsOptions = {
  packageManager: { name: PackageManager; version: string | undefined }
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
  if (result.location === "project") return { commands: projectCommands(result, options), hint: hintFor(result) }
  const manager = commandsFor(options.packageManager)
  const shell = options.shell ?? userShell()
  const commands: string[] = []
  const folder = cdTarget(options.cwd, result.root)
  if (folder !== "") commands.push(`cd ${shellWord(folder, shell)}`)
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

/**
 * The package's test script with a vitest flag (`-u`, `--watch`), as `packageManager` runs it from
 * where the next steps run it: the project folder (the package is `.opencode`), else the package's
 * folder. npm needs `--` before the flag; pnpm, yarn and `bun run` pass what follows the script name on.
 */
export function testScriptWith(
  packageManager: NextStepsOptions["packageManager"],
  location: ScaffoldResult["location"],
  flag: string,
): string {
  const test =
    location === "project" ? projectCommandsFor(packageManager, ".opencode").test : commandsFor(packageManager).test
  return packageManager.name === "npm" ? `${test} -- ${flag}` : `${test} ${flag}`
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
  const manager = projectCommandsFor(options.packageManager, folder)
  commands.push(manager.install)
  if (result.test) commands.push(manager.test)
  const toolTester = result.test ? `${manager.exec} tool-tester` : `${manager.dlx} @opencode-ai/tool-tester`
  const [firstId] = result.toolIds
  commands.push(`${toolTester} run ${firstId} ${argumentsFor(result.template.exampleArgs, shell)}`)
  return commands
}

/** `to` relative to `from` (with forward slashes) when it is below it or next to it, else absolute ("" when they are the same). */
function cdTarget(from: string, to: string): string {
  const path = portablePath(relative(from, to))
  return path.startsWith("../..") || isAbsolute(path) ? to : path
}

function projectCommandsFor(packageManager: NextStepsOptions["packageManager"], folder: string) {
  switch (packageManager.name) {
    case "pnpm":
      return {
        install: `pnpm --dir ${folder} install`,
        test: `pnpm --dir ${folder} test`,
        exec: `pnpm --dir ${folder} exec`,
        dlx: "pnpm dlx",
      }
    case "yarn": {
      const classic = packageManager.version?.startsWith("1.") ?? true
      return {
        install: `yarn --cwd ${folder} install`,
        test: `yarn --cwd ${folder} test`,
        exec: `yarn --cwd ${folder}`,
        dlx: classic ? "npx" : "yarn dlx",
      }
    }
    case "bun":
      // `bun test` would run Bun's own test runner, not the package's test script.
      return {
        install: `bun install --cwd ${folder}`,
        test: `bun run --cwd ${folder} test`,
        exec: `bun run --cwd ${folder}`,
        dlx: "bunx",
      }
    default:
      return {
        install: `npm install --prefix ${folder}`,
        test: `npm test --prefix ${folder}`,
        exec: `npx --prefix ${folder}`,
        dlx: "npx",
      }
  }
}

function commandsFor(packageManager: NextStepsOptions["packageManager"]) {
  switch (packageManager.name) {
    case "pnpm":
      return { install: "pnpm install", test: "pnpm test", run: "pnpm run", exec: "pnpm exec", dlx: "pnpm dlx" }
    case "yarn": {
      const classic = packageManager.version?.startsWith("1.") ?? true
      return { install: "yarn", test: "yarn test", run: "yarn run", exec: "yarn", dlx: classic ? "npx" : "yarn dlx" }
    }
    case "bun":
      // `bun test` would run Bun's own test runner, not the package's test script.
      return { install: "bun install", test: "bun run test", run: "bun run", exec: "bun run", dlx: "bunx" }
    default:
      return { install: "npm install", test: "npm test", run: "npm run", exec: "npx", dlx: "npx" }
  }
}

function hintFor(result: ScaffoldResult): string {
  const ids = result.toolIds.join(", ")
  if (result.location === "plugin") {
    return `To use it, add "${result.packageName}" to the "plugin" list of opencode.json once published, or its folder ${printable(result.root)} before (after installing and building it there). opencode will offer ${ids}.`
  }
  if (result.location === "global") return `opencode will offer ${ids} in every project.`
  return `Start opencode in ${printable(result.directory)}: it will offer ${ids}.`
}
