import os from "node:os"
import path from "node:path"

/** Where tool-tester saves truncated outputs unless told otherwise: never your real opencode data. */
export function defaultDataDirectory(): string {
  return path.join(os.tmpdir(), "opencode-tool-tester", "data")
}

/** opencode's own data folder (`$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`), to pass as `dataDirectory` on purpose. */
export function opencodeDataDirectory(
  env: Record<string, string | undefined> = process.env,
  home = os.homedir(),
): string {
  return path.join(env["XDG_DATA_HOME"] || path.join(home, ".local", "share"), "opencode")
}
