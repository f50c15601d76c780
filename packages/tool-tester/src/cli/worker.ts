// The worker thread's side of a task: capture the console, take the task, run it, answer once.
// Each command has its own entry in workers/ (bundled into one file each by the build), so a
// worker loads only what its command needs, in one read. Tool files are user code: they are only
// ever imported in a worker, and only once the capture is in place.
import { parentPort, workerData } from "node:worker_threads"
import { safeStringify } from "../_json-safe.ts"
import { restoreBuiltins } from "../_pristine.ts"
import { importEvents } from "../discovery/import-module.ts"
import { engineHere } from "../engine/here.ts"
import { ToolTesterError } from "../errors.ts"
import { installCapture } from "./_console-capture.ts"
import { settle } from "./_settle.ts"
import type { Reached, Task, TaskCommand, WorkerData, WorkerMessage } from "./worker-protocol.ts"

/** What a command's worker does with its task; `loaded` says the tools are loaded (and which one a run reaches). */
export type Perform<C extends TaskCommand> = (
  input: InputOf<C>,
  loaded: (reached: Reached | undefined) => void,
) => Promise<unknown>

type InputOf<C extends TaskCommand> = Extract<Task, { command: C }>["input"]

/** Serves the one task the CLI sends this worker. */
export async function serveTask<C extends TaskCommand>(command: C, perform: Perform<C>): Promise<void> {
  const data = workerData as WorkerData
  installCapture(data.capture, { stdout: process.stdout, stderr: process.stderr })
  const send = (message: WorkerMessage) => parentPort!.postMessage(message)
  try {
    if (data.command !== command) throw new Error(`the ${command} worker was started for ${data.command}`)
    const task = await new Promise<Task>((resolve) => parentPort!.once("message", resolve))
    const input = task.input as InputOf<C>
    importEvents.onImport = (file) => send({ type: "loading", file })
    const payload = await perform(input, (reached) => send({ type: "loaded", reached }))
    if (command === "run") await settle()
    restoreBuiltins()
    send({ type: "done", payload: safeStringify({ ...(payload as object), engine: engineHere() }) })
  } catch (error) {
    send({
      type: "failed",
      error: ToolTesterError.isInstance(error)
        ? { code: error.code, message: error.message }
        : { code: "INTERNAL", message: error instanceof Error ? (error.stack ?? error.message) : String(error) },
    })
  }
}
