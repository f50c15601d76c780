// The checkout a recorded run is compared with: a folder that is one already (installed and
// built), or a git revision of this repository, checked out as a worktree in `folder`, installed
// with the pnpm its package.json names, and built, as CI does.
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import path from "node:path"

/**
 * The baseline's folder for `spec` (a folder, or a revision of the repository at `root`), and how
 * to remove what was made for it.
 */
export function prepareBaseline(spec, { root, folder }) {
  if (existsSync(spec)) {
    const checkout = path.resolve(spec)
    if (!existsSync(path.join(checkout, "node_modules", "vitest", "vitest.mjs"))) {
      throw new Error(`${checkout} has no node_modules/vitest: install and build it first, or give a git revision`)
    }
    return { root: checkout, remove: () => {} }
  }
  const checkout = path.join(folder, "baseline")
  run("git", ["worktree", "add", "--detach", checkout, spec], root, `git worktree add of ${spec}`)
  const remove = () => {
    spawnSync("git", ["worktree", "remove", "--force", checkout], { cwd: root, stdio: "ignore" })
  }
  try {
    const pnpm = ["-y", pnpmOf(checkout)]
    run("npx", [...pnpm, "install", "--frozen-lockfile"], checkout, `pnpm install in the baseline (${spec})`)
    run("npx", [...pnpm, "build"], checkout, `pnpm build in the baseline (${spec})`)
  } catch (error) {
    remove()
    throw error
  }
  return { root: checkout, remove }
}

/** `pnpm@X.Y.Z` from the checkout's package.json `packageManager`. */
function pnpmOf(checkout) {
  const manager = JSON.parse(readFileSync(path.join(checkout, "package.json"), "utf8")).packageManager
  if (typeof manager !== "string" || !manager.startsWith("pnpm@"))
    throw new Error(`${checkout}/package.json names no pnpm`)
  return manager.split("+")[0]
}

function run(command, args, cwd, what) {
  const result = spawnSync(command, args, { cwd, stdio: ["ignore", "ignore", "inherit"], shell: false })
  if (result.error || result.status !== 0)
    throw new Error(`${what} failed${result.error ? `: ${result.error.message}` : ""}`)
}
