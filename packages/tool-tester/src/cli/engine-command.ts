// Which command line loads tools in an engine: read by main.ts before anything else of the CLI
// loads, so that the help and the commands that load no tools never load the engine's modules
// (engine-option.ts, which chooses and starts it).
import type { TaskCommand } from "../tasks/task.ts"
import { optionWords } from "./option-words.ts"

/** The commands that load tools in an engine (the others never start one). */
const ENGINE_COMMANDS: readonly TaskCommand[] = ["list", "schema", "run", "doctor", "fuzz"]

/** The command that will load tools in an engine, unless help is asked for. */
export function engineCommand(argv: readonly string[]): TaskCommand | undefined {
  const flags = optionWords(argv)
  if (flags.includes("-h") || flags.includes("--help")) return undefined
  return ENGINE_COMMANDS.find((command) => command === argv[0])
}
