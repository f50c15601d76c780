import { join } from "node:path"

/**
 * opencode's global config folder, which it scans for `tools/` like a project's `.opencode/`:
 * `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode` (on every platform, as opencode does).
 * Takes the environment and home folder as arguments so that it stays free of process state.
 */
export function globalConfigDirectory(environment: Readonly<Record<string, string | undefined>>, home: string): string {
  const configHome = environment.XDG_CONFIG_HOME
  return join(configHome !== undefined && configHome !== "" ? configHome : join(home, ".config"), "opencode")
}
