// The project a command tests when no --dir is given. create-tool installs tool-tester in the
// project's `.opencode` folder, so `cd .opencode && npx @opencode-ai/tool-tester list` is natural; opencode
// started there would load the parent's `.opencode` anyway, so the project is the parent.
import path from "node:path"
import { initCwdIsYarnCwd } from "../package-manager.ts"

/** The project folder for `--dir` (or the working directory), and a one-line notice when it moved up. */
export function projectDirectory(cwd: string, dir: string | undefined): { directory: string; notice?: string } {
  if (dir !== undefined) return { directory: path.resolve(cwd, dir) }
  const directory = path.resolve(cwd)
  if (path.basename(directory) !== ".opencode") return { directory }
  const parent = path.dirname(directory)
  return {
    directory: parent,
    notice: `tool-tester: testing the project ${parent}, which this .opencode folder belongs to (pass --dir . to test the folder itself)`,
  }
}

/**
 * The folder paths are shown relative to. pnpm, yarn and bun start the bin inside `.opencode`
 * (`pnpm --dir .opencode exec tool-tester ...`), npx from the project folder: with no --dir, paths
 * are shown from the project in both cases (`.opencode/tools/greet.ts`), never `tools/greet.ts`
 * under one package manager and `.opencode/tools/greet.ts` under another.
 */
export function displayDirectory(cwd: string, dir: string | undefined): string {
  const here = path.resolve(cwd)
  return dir === undefined && path.basename(here) === ".opencode" ? path.dirname(here) : cwd
}

/**
 * The folder the user typed the command in. `pnpm --dir .opencode exec`, `yarn --cwd .opencode` and
 * `bun run --cwd .opencode` (the documented forms) start tool-tester inside `.opencode`, and say
 * where they were started: INIT_CWD (pnpm, yarn), the shell's PWD (bun, which sets no INIT_CWD).
 * When that is the folder around `.opencode`, it is the one relative paths are read from and files
 * are written to, as under `npx --prefix .opencode`: one place whatever the package manager. Else
 * (`cd .opencode` first) the working directory. yarn 2+ sets both to its `--cwd` folder, which
 * says nothing (initCwdIsYarnCwd): the folder around `.opencode`, where the docs run every command.
 */
export function invocationDirectory(cwd: string, env: Readonly<Record<string, string | undefined>>): string {
  const here = path.resolve(cwd)
  if (path.basename(here) !== ".opencode") return cwd
  if (initCwdIsYarnCwd(env)) return path.dirname(here)
  const started = env["INIT_CWD"] ?? env["PWD"]
  if (started === undefined || !path.isAbsolute(started)) return cwd
  return path.resolve(started) === path.dirname(here) ? path.dirname(here) : cwd
}
