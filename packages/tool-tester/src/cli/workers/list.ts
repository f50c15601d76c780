// The worker for `tool-tester list` (see ../worker.ts).
import { listTask } from "../tasks/list-task.ts"
import { serveTask } from "../worker.ts"

await serveTask("list", listTask)
