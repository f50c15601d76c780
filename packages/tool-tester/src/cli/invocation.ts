// The words that run this tool-tester again, for the commands the CLI prints (fuzz's replay, e2e
// --init's "Run it"): a pasted line must run the same bin from where the user is. There is no
// unscoped `tool-tester` package on npm (whoever claimed the name would run), so neither a bare
// `tool-tester` nor npx with the unscoped name is printed for a bin that is not installed there.
import path from "node:path"
import { portablePath, shellWord, userShell } from "../_shell-quote.ts"

export type PackageManagerName = "npm" | "pnpm" | "yarn" | "bun"

/** The package manager that started this process, from `npm_config_user_agent` (`pnpm/10.3.0 npm/? node/...`). */
export function packageManagerOf(env: Record<string, string | undefined>): PackageManagerName | undefined {
  const match = /^(npm|pnpm|yarn|bun)\//.exec(env["npm_config_user_agent"] ?? "")
  return match === null ? undefined : (match[1] as PackageManagerName)
}

/**
 * The command that runs this tool-tester from where the user is, given the bin's path as started
 * (`process.argv[1]`: npm's, pnpm's, yarn's and bun's links and Windows shims keep the installed
 * path, `.opencode/node_modules/...`). Installed in a `.opencode` folder, it is run from the project
 * folder around it, as the docs run every command (`npx --prefix .opencode tool-tester`, `pnpm --dir
 * .opencode exec tool-tester`, ...); pnpm, yarn and bun start the bin inside that folder, so the
 * working folder alone does not say where the user typed. Installed elsewhere, the command is
 * relative to the working folder. From a one-off download, or from a checkout, the scoped package.
 */
export function toolTesterCommand(io: { cwd: string; env: Record<string, string | undefined>; bin?: string }): string {
  const manager = packageManagerOf(io.env) ?? "npm"
  const folder = io.bin === undefined ? undefined : installFolder(io.bin)
  if (folder === undefined) return `${DOWNLOAD[manager]} @opencode-ai/tool-tester`
  const from = path.basename(folder) === ".opencode" ? path.dirname(folder) : io.cwd
  const relative = path.relative(from, folder)
  const where = relative === "" ? undefined : shellWord(portablePath(relative), userShell(io.env))
  switch (manager) {
    case "pnpm":
      return where === undefined ? "pnpm exec tool-tester" : `pnpm --dir ${where} exec tool-tester`
    case "yarn":
      return where === undefined ? "yarn tool-tester" : `yarn --cwd ${where} tool-tester`
    case "bun":
      return where === undefined ? "bun run tool-tester" : `bun run --cwd ${where} tool-tester`
    default:
      // npx runs an installed package's bin; by its scoped name it never fetches another package.
      return where === undefined ? "npx @opencode-ai/tool-tester" : `npx --prefix ${where} tool-tester`
  }
}

// --- internal ---

const DOWNLOAD: Record<PackageManagerName, string> = { npm: "npx", pnpm: "pnpm dlx", yarn: "npx", bun: "bunx" }

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
