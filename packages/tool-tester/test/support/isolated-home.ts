import path from "node:path"

/**
 * The variables that say where a user's home and config, data, cache and state folders are, every
 * one of them inside `home`: HOME and the XDG folders (Linux, macOS, and opencode everywhere),
 * USERPROFILE, APPDATA and LOCALAPPDATA (Windows: os.homedir() reads USERPROFILE there, and
 * tool-tester's cache sits in LOCALAPPDATA). Every test that starts the CLI, an engine or opencode
 * gives it these, so that the developer's own config never leaks in, on any OS.
 */
export function isolatedHome(home: string): Record<string, string> {
  return {
    HOME: home,
    USERPROFILE: home,
    APPDATA: path.join(home, "AppData", "Roaming"),
    LOCALAPPDATA: path.join(home, "AppData", "Local"),
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    XDG_STATE_HOME: path.join(home, ".local", "state"),
  }
}
