// The worker for `tool-tester schema` (see ../worker.ts).
import { schemaTask } from "../tasks/schema-task.ts"
import { serveTask } from "../worker.ts"

await serveTask("schema", schemaTask)
