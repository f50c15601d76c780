// A file as the commands the CLI prints name it (e2e --init's "Run it"): relative to where the
// command was typed, with forward slashes, as every hint writes paths (_shell-quote.ts).
import path from "node:path"
import { portablePath } from "../_shell-quote.ts"

/**
 * `file` from `cwd`: relative with forward slashes, which every shell and Node read on every OS
 * (`path.relative` gives backslashes on Windows); `paths` is Windows' or POSIX's path module (the
 * platform's by default).
 */
export function printedPath(cwd: string, file: string, paths: Pick<typeof path, "relative"> = path): string {
  return portablePath(paths.relative(cwd, file)) || file
}
