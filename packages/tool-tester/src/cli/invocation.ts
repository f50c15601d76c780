// The words that run this tool-tester again, for the commands the CLI prints (fuzz's replay, e2e
// --init's "Run it"): a pasted line must run the same bin from where the user is. There is no
// unscoped `tool-tester` package on npm (whoever claimed the name would run), so neither a bare
// `tool-tester` nor npx with the unscoped name is printed for a bin that is not installed there,
// and npx runs an installed one with `--no`: if the install is gone, it stops instead of fetching.
import path from "node:path"
import { portablePath, shellWord, userShell } from "../_shell-quote.ts"
import { initCwdIsYarnCwd, PACKAGE_MANAGERS, packageManagerThatStarted } from "../package-manager.ts"

/**
 * The command that runs this tool-tester from where the user is, given the bin's path as started
 * (`process.argv[1]`: npm's, pnpm's, yarn's and bun's links and Windows shims keep the installed
 * path, `.opencode/node_modules/...`). Installed in a `.opencode` folder, it is run from the project
 * folder around it, as the docs run every command (`npx --no --prefix .opencode tool-tester`, `pnpm --dir
 * .opencode exec tool-tester`, ...); pnpm, yarn and bun start the bin inside that folder, so the
 * working folder alone does not say where the user typed. Installed elsewhere, the command is
 * relative to the working folder. From a one-off download, or from a checkout, the scoped package.
 */
export function toolTesterCommand(io: { cwd: string; env: Record<string, string | undefined>; bin?: string }): string {
  const started = packageManagerThatStarted(io.env)
  const manager = PACKAGE_MANAGERS[started ?? "npm"]
  const folder = io.bin === undefined ? undefined : installFolder(io.bin)
  if (folder === undefined) return `${manager.download} ${PACKAGE}`
  const from =
    (started === undefined || started === "bun" ? undefined : typedIn(io.env)) ??
    (path.basename(folder) === ".opencode" ? path.dirname(folder) : io.cwd)
  const relative = path.relative(from, folder)
  const where = relative === "" ? undefined : shellWord(portablePath(relative), userShell(io.env))
  return manager.runInstalled(where, "tool-tester", PACKAGE)
}

// --- internal ---

/**
 * The folder the user typed the command in, as npm, pnpm and yarn pass it (`INIT_CWD`: npx keeps
 * the working folder, the others start the bin in the install folder). Read only when one of them
 * started the bin: Bun sets none, and one it (or a bin started directly) passes on is older, an
 * npm script's; yarn 2+ sets its `--cwd` folder (initCwdIsYarnCwd). Otherwise the project folder
 * around `.opencode` is assumed, where the docs run every command.
 */
function typedIn(env: Record<string, string | undefined>): string | undefined {
  if (initCwdIsYarnCwd(env)) return undefined
  const folder = env["INIT_CWD"]
  return folder !== undefined && path.isAbsolute(folder) ? folder : undefined
}

const PACKAGE = "@opencode-ai/tool-tester"

/**
 * The folder whose `node_modules` holds the bin (the outermost one: pnpm keeps packages deeper, in
 * `node_modules/.pnpm/...`), or undefined for a one-off download (npx's `_npx`, pnpm's `dlx`, bunx's
 * `bunx-*` folders) or a bin outside any `node_modules`.
 */
function installFolder(bin: string): string | undefined {
  const parts = path.resolve(bin).split(/[\\/]/)
  const index = parts.indexOf("node_modules")
  if (index <= 0) return undefined
  const folder = parts.slice(0, index)
  if (folder.some((part) => part === "_npx" || part === "dlx" || part.startsWith("bunx-"))) return undefined
  return folder.join(path.sep) || path.sep
}
