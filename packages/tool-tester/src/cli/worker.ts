// The worker thread that imports user code (tool and plugin files) and runs one task. Its console
// output is captured before anything else loads. It starts before the CLI has read its arguments:
// it loads the modules its command needs, then waits for the task.
import { parentPort, workerData } from "node:worker_threads"
import { jsonSafe } from "../_json-safe.ts"
import { ToolTesterError } from "../errors.ts"
import { installCapture } from "./_console-capture.ts"
import type { Reached, Task, TaskCommand, WorkerData, WorkerMessage } from "./worker-protocol.ts"

const { command, capture } = workerData as WorkerData
installCapture(capture, { stdout: process.stdout, stderr: process.stderr })

const send = (message: WorkerMessage) => parentPort!.postMessage(message)
const loaded = (reached: Reached | undefined) => send({ type: "loaded", reached })

try {
  const perform = await taskRunner(command)
  const task = await new Promise<Task>((resolve) => parentPort!.once("message", resolve))
  const payload = await perform(task)
  send({ type: "done", payload: JSON.stringify(jsonSafe(payload)) })
} catch (error) {
  send({
    type: "failed",
    error: ToolTesterError.isInstance(error)
      ? { code: error.code, message: error.message }
      : { code: "INTERNAL", message: error instanceof Error ? (error.stack ?? error.message) : String(error) },
  })
}

// --- internal ---

async function taskRunner(name: TaskCommand): Promise<(task: Task) => Promise<unknown>> {
  switch (name) {
    case "list": {
      const { listTask } = await import("./tasks/list-task.ts")
      return (task) => listTask(task.input, loaded)
    }
    case "schema": {
      const { schemaTask } = await import("./tasks/schema-task.ts")
      return (task) => schemaTask((task as Extract<Task, { command: "schema" }>).input, loaded)
    }
    case "doctor": {
      const { doctorTask } = await import("./tasks/doctor-task.ts")
      return (task) => doctorTask((task as Extract<Task, { command: "doctor" }>).input, loaded)
    }
    case "run": {
      const { runTask } = await import("./tasks/run-task.ts")
      return (task) => runTask((task as Extract<Task, { command: "run" }>).input, loaded)
    }
  }
}
