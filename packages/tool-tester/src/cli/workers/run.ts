// The worker for `tool-tester run` (see ../worker.ts).
import { runTask } from "../tasks/run-task.ts"
import { serveTask } from "../worker.ts"

await serveTask("run", runTask)
