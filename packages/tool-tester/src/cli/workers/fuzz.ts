// The worker for `tool-tester fuzz` (see ../worker.ts).
import { fuzzTask } from "../tasks/fuzz-task.ts"
import { serveTask } from "../worker.ts"

await serveTask("fuzz", fuzzTask)
