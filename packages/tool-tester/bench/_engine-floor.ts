// The floor of a CLI that runs a tool in the bun engine (bench/cli-cold-start.ts): the runtime
// starts, starts the engine with the product's own Node side (engine-task.ts, the code the CLI runs:
// the secret, the channel on fd 3, the reaper), gives it the task, and exits at its answer, with
// no flags read and no report printed. The bench bundles this file as the CLI is bundled, and runs
// it with Node and with Bun: node <bundle> <bun binary> <project directory>.
import { runTaskInEngine, startEngine } from "../src/tasks/engine-task.ts"
import type { RunInput } from "../src/tasks/task.ts"
import { DEFAULT_MODEL } from "../src/pipeline/builtins.ts"

const [binary, directory] = process.argv.slice(2)
if (binary === undefined || directory === undefined) {
  process.stderr.write("usage: engine-floor <bun binary> <project directory>\n")
  process.exit(2)
}
const input: RunInput = {
  directory,
  global: false,
  plugins: [],
  model: DEFAULT_MODEL,
  name: "weather",
  args: { form: "json", value: { city: "Paris" } },
  validate: false,
  deny: [],
  maxLines: undefined,
  maxBytes: undefined,
  timeoutMs: 60_000,
  dataDirectory: undefined,
}
const started = startEngine("run", { name: "bun", location: { binary, source: "option" } })
const outcome = await runTaskInEngine(
  { command: "run", input },
  { loadTimeoutMs: 60_000, runTimeoutMs: 60_000, graceMs: 0 },
  started,
)
if (outcome.kind !== "done") {
  process.stderr.write(`${JSON.stringify(outcome)}\n`)
  process.exit(1)
}
process.stdout.write(`${(outcome.payload as { result: { output: string } }).result.output}\n`)
process.exit(0)
