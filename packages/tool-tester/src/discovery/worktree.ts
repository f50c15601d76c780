import { existsSync } from "node:fs"
import path from "node:path"

/** The git worktree root above `directory`, or `"/"` when it is not in a git repository (opencode's sentinel). */
export function findWorktree(directory: string): string {
  let current = path.resolve(directory)
  while (true) {
    // `.git` is a folder in a plain clone and a file in linked worktrees and submodules.
    if (existsSync(path.join(current, ".git"))) return current
    const parent = path.dirname(current)
    if (parent === current) return "/"
    current = parent
  }
}
