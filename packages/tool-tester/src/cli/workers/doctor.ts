// The worker for `tool-tester doctor` (see ../worker.ts).
import { doctorTask } from "../tasks/doctor-task.ts"
import { serveTask } from "../worker.ts"

await serveTask("doctor", doctorTask)
