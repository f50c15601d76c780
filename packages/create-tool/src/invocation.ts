// How the user typed create-tool, for the commands its messages tell them to type. Started by a
// package manager (`npm create tool`, `npx create-tool`, `pnpm create tool`...), there is no
// `create-tool` command on PATH: "see create-tool --help" pasted gave "command not found".
import { packageManagerFromUserAgent } from "./package-manager.ts"

type Env = Readonly<Record<string, string | undefined>>

/** `npm create tool` (or pnpm's, yarn's, bun's) when a package manager started create-tool, else `create-tool`. */
function createToolCommand(env: Env): string {
  const userAgent = env["npm_config_user_agent"]
  if (!/^(npm|pnpm|yarn|bun)\//.test(userAgent ?? "")) return "create-tool"
  return `${packageManagerFromUserAgent(userAgent).name} create tool`
}

/** The command line that prints create-tool's help: npm keeps `--help` for itself without `--`; the others pass `--` on, and create-tool skips it. */
export function helpCommand(env: Env): string {
  const command = createToolCommand(env)
  return command === "create-tool" ? "create-tool --help" : `${command} -- --help`
}

/** `NAME` followed by create-tool's options, as typed: after `--` under a package manager. */
export function exampleCommand(env: Env, name: string, options = ""): string {
  const command = createToolCommand(env)
  if (options === "") return `${command} ${name}`
  return command === "create-tool" ? `${command} ${name} ${options}` : `${command} ${name} -- ${options}`
}
