// Packs every package once, with pnpm (as a release does), for all the tests of this project, and
// runs the release dry run. Both run create-tool's prepack, which copies the templates into its
// folder for a moment: vitest runs every global setup before any test, so no create-tool test reads
// a half-made copy.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import type { TestProject } from "vitest/node"
import { listPackages, pnpm, root, type Tarballs } from "./_packages.ts"
import { cleanEnv, describeRun, run } from "./_run.ts"

export default async function setup(project: TestProject) {
  const destination = mkdtempSync(path.join(os.tmpdir(), "install-tarballs-"))
  const tarballs: Tarballs = {}
  // One after the other: create-tool's prepack copies the templates into its folder.
  for (const info of listPackages()) {
    const folder = path.join(destination, path.basename(info.directory))
    const result = await run(pnpm[0], [...pnpm[1], "pack", "--pack-destination", folder], {
      cwd: info.directory,
      timeout: 300_000,
      env: cleanEnv(),
    })
    const [tarball] = result.status === 0 ? readdirSync(folder).filter((file) => file.endsWith(".tgz")) : []
    if (tarball === undefined) throw new Error(`pnpm pack failed in ${info.directory}: ${describeRun(result)}`)
    tarballs[info.name] = path.join(folder, tarball)
  }
  project.provide("tarballs", tarballs)
  project.provide("releaseDryRun", await releaseDryRun(destination))
  return () => rmSync(destination, { recursive: true, force: true })
}

/** `pnpm release:dry-run` without its build (the test command builds first), and with an empty npmrc: no credentials. */
async function releaseDryRun(folder: string) {
  const npmrc = path.join(folder, "empty.npmrc")
  writeFileSync(npmrc, "")
  return run(pnpm[0], [...pnpm[1], "-r", "--filter=./packages/*", "publish", "--dry-run", "--no-git-checks"], {
    cwd: root,
    timeout: 600_000,
    env: cleanEnv({ NPM_CONFIG_USERCONFIG: npmrc }),
  })
}
