// The repository's packages and the commands that pack them, shared by the global setup and the tests.
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

export const root = fileURLToPath(new URL("../..", import.meta.url))

/** pnpm as the README runs it: no global install needed. */
export const pnpm = ["npx", ["-y", "pnpm@10.34.9"]] as const

export type PackageInfo = { name: string; version: string; directory: string }

/** Every publishable package under packages/. */
export function listPackages(): PackageInfo[] {
  const packagesDirectory = path.join(root, "packages")
  return readdirSync(packagesDirectory)
    .map((entry) => path.join(packagesDirectory, entry))
    .map((directory) => ({
      directory,
      manifest: JSON.parse(readFileSync(path.join(directory, "package.json"), "utf8")),
    }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ directory, manifest }) => ({ name: manifest.name, version: manifest.version, directory }))
}

/** Package name -> the tarball `pnpm pack` made of it. */
export type Tarballs = Record<string, string>

declare module "vitest" {
  export interface ProvidedContext {
    tarballs: Tarballs
    /** What `pnpm -r publish --dry-run --no-git-checks` printed, run by the global setup. */
    releaseDryRun: { status: number | null; stdout: string; stderr: string }
  }
}
