// Bun's auto-install: Bun fetches from the registry, into its cache, a package that a module
// imports (or that require.resolve looks up) and no node_modules holds. opencode's Bun never does
// (a missing package fails its tool list: docs/opencode-contract.md#bun-runtime), and tool-tester
// downloads nothing unless asked. The CLI run by Bun starts again with --no-install
// (cli/bun-host.ts), the engines are started with it (spawn-engine.ts), and the library run by Bun
// loads the project in such an engine when auto-install would reach it (load-tools.ts).
import { existsSync } from "node:fs"
import path from "node:path"

/**
 * Whether Bun was started with a choice about auto-install: `--no-install`, or `--install=...` /
 * `-i` (the user asked for installs, which tool-tester does not override).
 */
export function autoInstallChosen(execArgv: readonly string[]): boolean {
  return execArgv.some((flag) => flag === "--no-install" || flag === "-i" || /^--install(=|$)/.test(flag))
}

/**
 * Whether Bun, auto-install left at its default, would fetch what a module in `folder` imports
 * and cannot find: when neither `folder` nor any folder above it has a `node_modules` folder.
 * Bun 1.3.14 decides this per importing file, by its own folder, not by the working directory
 * (observed with opencode's Bun: a script in a folder without node_modules fetches from a working
 * directory that has one, and the reverse does not). `bun test` never auto-installs; nothing in
 * its process tells it apart from `bun file.ts`, so this does not ask.
 */
export function autoInstallReaches(folder: string): boolean {
  let current = path.resolve(folder)
  while (true) {
    if (existsSync(path.join(current, "node_modules"))) return false
    const parent = path.dirname(current)
    if (parent === current) return true
    current = parent
  }
}
