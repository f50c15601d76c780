import { existsSync } from "node:fs"
import path from "node:path"
import type { ConfigDirectory } from "../discovery/config-dirs.ts"
import type { Finding } from "./finding.ts"

/**
 * Config folders whose `node_modules` pnpm installed. At start-up opencode runs its own npm
 * install in each config folder; on pnpm's layout it fails, after a long wait, so opencode starts
 * about 100 s later than with npm, yarn or bun (docs/scaffolding.md, the pnpm note).
 */
export function pnpmInstallFindings(directories: readonly ConfigDirectory[]): Finding[] {
  return directories
    .filter((directory) => directory.kind !== "global" && isPnpmInstall(directory.path))
    .map((directory) => ({
      code: "PNPM_INSTALL" as const,
      severity: "warning" as const,
      file: path.join(directory.path, "node_modules"),
      message:
        "pnpm installed this folder's packages: opencode runs its own npm install in every config folder when it starts, which fails on pnpm's layout after a long wait, so opencode starts about 100 s later (5 to 9 s with npm, yarn or bun); the tools still load. Install this folder with npm, yarn or bun to start fast",
    }))
}

function isPnpmInstall(folder: string): boolean {
  const modules = path.join(folder, "node_modules")
  return existsSync(path.join(modules, ".pnpm")) || existsSync(path.join(modules, ".modules.yaml"))
}
