// `--opencode` as the commands that run opencode (e2e, eval, verify) pass it on: a path is taken
// from where the command was typed, a command name (`--opencode opencode`) is kept, for
// resolveOpencode to look up on PATH as the shell would.
import path from "node:path"
import { isCommandName } from "../runtime/find-program.ts"

export function opencodeOption(cwd: string, value: string): string {
  return isCommandName(value) ? value : path.resolve(cwd, value)
}
