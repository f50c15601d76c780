// Where module loading keeps what it can reuse: a folder of the user's own under the temporary
// folder (as tsx does), so two users of one machine never share, or fight over, the same files.
import os from "node:os"
import path from "node:path"

/** The folder module loading keeps its `kind` of reusable files in (not tool-tester's per-user cache: that is engine/opencode-binary.ts `toolTesterCacheDirectory`). */
export function moduleCacheDirectory(kind: "analyzed" | "modules"): string {
  return path.join(os.tmpdir(), `opencode-tool-tester-${userKey()}`, kind)
}

function userKey(): string {
  const uid = process.getuid?.()
  if (uid !== undefined && uid >= 0) return String(uid)
  try {
    return os.userInfo().username.replace(/[^A-Za-z0-9._-]/g, "_")
  } catch {
    return "user"
  }
}
