// Environment variables that name a folder (caches, config, data, temporary files) count as unset
// when they are empty, as tool-tester's own code reads them (`env.XDG_CACHE_HOME || ~/.cache`).
// The programs it starts are given them that way too: Bun, given `XDG_CACHE_HOME=`, would write its
// transpiler cache to `bun/@t@/` in the working folder, the user's project.

/** The folder variables an empty value is taken out of (BUN_RUNTIME_TRANSPILER_CACHE_PATH is not one: empty, it switches Bun's cache off). */
export const FOLDER_VARIABLES: readonly string[] = [
  "XDG_CACHE_HOME",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_RUNTIME_DIR",
  "TMPDIR",
  "TEMP",
  "TMP",
  "LOCALAPPDATA",
  "APPDATA",
]

/** `env` without the folder variables that are set but empty (a copy; `env` is left as it is). */
export function withoutEmptyFolders<T extends Record<string, string | undefined>>(env: T): T {
  const copy: Record<string, string | undefined> = { ...env }
  for (const key of Object.keys(copy)) {
    if (copy[key] === "" && FOLDER_VARIABLES.includes(key.toUpperCase())) delete copy[key]
  }
  return copy as T
}
