// `tool-tester run NAME ... --watch`: after the first run, the same call again on every save of
// the project's tool, plugin and config files (the inspector's watcher), each in a fresh engine,
// so the edit is what runs. Ends on Ctrl-C with the last run's exit code.
import path from "node:path"
import { chooseEngine } from "../engine-client/choose-engine.ts"
import type { StartedEngine } from "../tasks/engine-task.ts"
import { startEngine } from "../tasks/engine-task.ts"
import type { RunInput } from "../tasks/task.ts"
import { projectWatchTargets, watchProject } from "../inspector/watch-project.ts"
import type { CliIO } from "./_command.ts"

export async function watchRuns(
  io: CliIO,
  options: {
    input: RunInput
    json: boolean
    engine: string | undefined
    engineBinary: string | undefined
    /** The first run's exit code. */
    exitCode: number
  },
  run: (worker: StartedEngine) => Promise<number>,
): Promise<number> {
  const { directory, global } = options.input
  const chosen = await chooseEngine({
    engine: options.engine,
    engineBinary: options.engineBinary,
    env: io.env,
    cwd: io.cwd,
    directory,
  })
  let exitCode = options.exitCode
  let running: Promise<void> | undefined
  let again: string[] | undefined
  const rerun = async (files: string[]): Promise<void> => {
    if (running) {
      again = [...(again ?? []), ...files]
      return
    }
    if (!options.json) io.writeError(`\n--- ${describe(files, io.cwd)} changed: running again ---\n`)
    running = run(startEngine("run", chosen.selection)).then((code) => {
      exitCode = code
    })
    await running
    running = undefined
    const pending = again
    again = undefined
    if (pending) await rerun(pending)
  }
  // The load runs in the engine, which does not say what it imported: the config files and the
  // plugins they list by path are read here, and the --plugin paths watched, as dev watches them.
  const targets = projectWatchTargets({ directory, global, env: io.env, pluginSpecs: options.input.plugins })
  const watcher = watchProject(targets, (files) => {
    void rerun(files)
  })
  if (!options.json) io.writeError("watching the tool, plugin and config files; Ctrl-C to stop\n")
  await new Promise<void>((resolve) => {
    const stopListening = io.onInterrupt(() => {
      stopListening()
      resolve()
    })
  })
  watcher.stop()
  await running
  return exitCode
}

// --- internal ---

function describe(files: string[], cwd: string): string {
  const names = [...new Set(files)].map((file) => path.relative(cwd, file) || file)
  return names.length > 2 ? `${names.slice(0, 2).join(", ")} and ${names.length - 2} more` : names.join(", ")
}
