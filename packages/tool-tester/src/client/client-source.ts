// Which client a project's plugins get (project-client.ts): the test's stub when one was passed;
// else a real server from the opencode binary the bun engine runs in (the engine's own executable
// when it is opencode's), or the one the project or PATH has; else none, and why.
import path from "node:path"
import { findOpencode } from "../opencode/opencode-binary.ts"
import { inBun } from "../runtime/here.ts"
import type { LoadToolsOptions } from "../types.ts"
import type { ClientSource } from "./project-client.ts"

export function clientSource(
  options: LoadToolsOptions,
  directory: string,
  env: Record<string, string | undefined>,
): ClientSource {
  if (options.client !== undefined) return { kind: "stub", stub: options.client }
  const binary = opencodeHere() ?? findOpencode({ directory, env })
  if (binary === undefined)
    return { kind: "unavailable", reason: "no opencode binary was found (project, tool-tester or PATH)" }
  return {
    kind: "server",
    binary,
    env: serverEnvironment(env, options.home),
    onLog: options.onServerLog,
    // --no-global: the user's global config, agents and ~/.opencode stay out of the server too.
    global: options.global ?? true,
  }
}

/**
 * The server reads the config the project was loaded with: this process's environment without the
 * variables that choose config folders, then the ones the load was given, and its home.
 */
function serverEnvironment(
  env: Record<string, string | undefined>,
  home: string | undefined,
): Record<string, string | undefined> {
  const base: Record<string, string | undefined> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (key === "XDG_CONFIG_HOME" || key.startsWith("OPENCODE_")) continue
    base[key] = value
  }
  return { ...base, ...env, ...(home === undefined ? {} : { HOME: home, USERPROFILE: home }) }
}

/** This process's own executable when it is opencode's (the bun engine runs in it, as BUN_BE_BUN=1). */
function opencodeHere(): string | undefined {
  if (!inBun) return undefined
  return /^opencode(\.exe)?$/i.test(path.basename(process.execPath)) ? process.execPath : undefined
}
