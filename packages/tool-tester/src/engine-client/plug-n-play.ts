// yarn 2+'s Plug'n'Play keeps each package inside a .zip that Node reads through yarn's hooks. The
// bun engine is started on a file of tool-tester's, which is then inside one: it cannot open it
// (yarn 4.18.1: "ENOENT: No such file or directory (open())"), and opencode loads nothing from
// Plug'n'Play either. The usual advice (another binary, the node engine) would not help.
import { fileURLToPath } from "node:url"

/** What to do when the bun engine did not start and tool-tester runs from a .zip (Plug'n'Play), else undefined. */
export function plugNPlayAdvice(modulePath: string = fileURLToPath(import.meta.url)): string | undefined {
  if (!/\.zip[\\/]/.test(modulePath)) return undefined
  return "tool-tester is installed with yarn's Plug'n'Play (its files are inside a .zip), which neither the bun engine nor opencode loads from: run yarn config set nodeLinker node-modules in the folder that installed it (yarn --cwd .opencode config set nodeLinker node-modules from the project), then install again"
}
