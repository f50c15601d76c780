// A temporary folder per engine, owned by the process that started the engine: what the engine
// makes for a while (the folder of the server behind a plugin's input.client) goes below it, so it
// is removed with the engine however the engine ends, by the one that started it (spawn-engine.ts
// guards it: at the engine's end, at this process's exit, or by this process's reaper). The engine
// cannot be trusted to remove it: it ends itself with SIGKILL to its group and runs no exit hook,
// and the bun engine's own reaper is ended with it (reaper.ts says why).
// It lives in the per-user folder (cache-directory.ts: 0700, refused when another user owns it),
// named for the engine's mark; it is made only when something needs it.
import { mkdirSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { ensurePrivateFolder, userTempDirectory } from "./cache-directory.ts"

/** The environment variable that tells an engine its temporary folder (not made yet). */
export const ENGINE_TEMP = "TOOL_TESTER_ENGINE_TEMP"

/** The temporary folder of the engine marked `mark` (the starting process's side; not made). */
export function engineTempFolder(mark: string): string {
  return path.join(userTempDirectory(), `engine-${mark}`)
}

/**
 * Where this process puts temporary folders that must not outlive it: its engine's folder, made
 * private on first use, when it is an engine; else the OS temporary folder (its own exit hook and
 * reaper remove what it makes there).
 */
export function scratchParent(env: NodeJS.ProcessEnv = process.env): string {
  const folder = env[ENGINE_TEMP]
  if (folder === undefined || folder === "") return os.tmpdir()
  // The per-user folder it is in is checked as every use of it is (a link, another user's: refused).
  ensurePrivateFolder(path.dirname(folder), process.getuid?.())
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  return folder
}
