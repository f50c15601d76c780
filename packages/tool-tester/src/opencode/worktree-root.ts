// A throw-away project must be the top of what opencode reads. opencode reads the `.opencode`
// folders and `opencode.json` files from the project up to its git worktree, and outside git up to
// the filesystem root (docs/opencode-contract.md#config-folders): a copy under the shared temporary
// folder would also read `/tmp/.opencode/tools/*.ts`, which anyone on the machine can plant. So the
// copy is made a git worktree root of its own (an empty repository, no git needed to write it), where
// opencode stops (observed on opencode 1.18.34 with git on its PATH). opencode finds the worktree
// by running git: without git on the PATH it walks to the root, so then any config found above
// the copy stops the run instead.

import { existsSync } from "node:fs"
import { lstat, mkdir, rm, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { ToolTesterError } from "../errors.ts"
import { findOnPath } from "./opencode-binary.ts"

/** What opencode reads from each folder of the walk up. */
const CONFIG_ENTRIES = [".opencode", "opencode.json", "opencode.jsonc"]

/**
 * Makes `folder` a git worktree root (an empty repository, unless it holds a repository of its
 * own already), and throws TEMP_FOLDER_UNSAFE when opencode, started with `env`, would still read
 * config above it (no git on its PATH, and a `.opencode` or `opencode.json` in a folder above).
 */
export async function makeWorktreeRoot(folder: string, env: Record<string, string | undefined>): Promise<void> {
  const git = join(folder, ".git")
  const stats = await lstat(git).catch(() => undefined)
  if (stats?.isDirectory() !== true) {
    // A `.git` file (a linked worktree, a submodule) points into the user's repository: not the copy's.
    if (stats !== undefined) await rm(git, { force: true })
    await mkdir(join(git, "objects"), { recursive: true })
    await mkdir(join(git, "refs", "heads"), { recursive: true })
    await writeFile(join(git, "HEAD"), "ref: refs/heads/main\n")
    await writeFile(join(git, "config"), "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n")
  }
  if (findOnPath("git", env) !== undefined) return
  const planted = configAbove(folder)
  if (planted === undefined) return
  throw new ToolTesterError(
    "TEMP_FOLDER_UNSAFE",
    `opencode would read ${planted}, above the throw-away copy ${folder}: without git on the PATH it reads config up to the filesystem root, and that one is not your project's. Install git, remove ${planted}, or point TMPDIR to a folder of your own`,
    { data: { file: planted, folder } },
  )
}

/** The first `.opencode`, `opencode.json` or `opencode.jsonc` in a folder above `folder`. */
function configAbove(folder: string): string | undefined {
  let current = dirname(folder)
  for (;;) {
    for (const name of CONFIG_ENTRIES) {
      const candidate = join(current, name)
      if (existsSync(candidate)) return candidate
    }
    const parent = dirname(current)
    if (parent === current) return undefined
    current = parent
  }
}
