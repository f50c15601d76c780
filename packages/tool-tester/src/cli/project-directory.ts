// The project a command tests when no --dir is given. create-tool installs tool-tester in the
// project's `.opencode` folder, so `cd .opencode && npx @opencode-ai/tool-tester list` is natural; opencode
// started there would load the parent's `.opencode` anyway, so the project is the parent.
import path from "node:path"

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
