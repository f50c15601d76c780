// Packs every package once, with pnpm (as a release does), for all the tests of this project.
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import type { TestProject } from "vitest/node"
import { listPackages, pnpm, type Tarballs } from "./_packages.ts"
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
  return () => rmSync(destination, { recursive: true, force: true })
}
