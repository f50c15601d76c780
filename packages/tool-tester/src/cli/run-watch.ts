// `tool-tester run NAME ... --watch`: after the first run, the same call again on every save of
// the project's tool, plugin and config files and the helpers the tools imported, at load or in
// the call (the inspector's watcher), each in a fresh engine, so the edit is what runs. Ends on
// Ctrl-C with the last run's exit code.
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
    /** The module files the first run's load imported (ToolProject.modules). */
    modules: readonly string[]
    /**
     * When the first run began (Date.now()): a file the watch takes on that was saved since runs
     * the call once more, for no watch existed yet to see that save.
     */
    startedAt: number
  },
  /**
   * One run in `worker`, telling `onModules` the module files its load imported, and again, the
   * whole grown list, when its call imported more (an `import()` inside `execute`).
   */
  run: (worker: StartedEngine, onModules: (files: string[]) => void) => Promise<number>,
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
    let imported: readonly string[] | undefined
    const startedAt = Date.now()
    running = run(startEngine("run", chosen.selection), (files) => {
      imported = files
    }).then((code) => {
      exitCode = code
      // A save may add or drop an import: the watch follows, and a module it watches from now on
      // that was saved while this run ran (maybe after the run read it) runs the call once more. A
      // run whose load never ended (a helper that never finishes importing) keeps what the last one
      // watched.
      if (imported !== undefined) watcher.retarget(targetsFor(imported), startedAt)
    })
    await running
    running = undefined
    const pending = again
    again = undefined
    if (pending) await rerun(pending)
  }
  // The load runs in the engine, which says which modules it imported but not which config files
  // it read: those and the plugins they list by path are read here, and the --plugin paths
  // watched, as dev watches them.
  const targetsFor = (modules: readonly string[]) =>
    projectWatchTargets({ directory, global, env: io.env, pluginSpecs: options.input.plugins, modules })
  const watcher = watchProject(
    targetsFor(options.modules),
    (files) => {
      void rerun(files)
    },
    options.startedAt,
  )
  if (!options.json)
    io.writeError("watching the tool, plugin and config files and what the tools import; Ctrl-C to stop\n")
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
