// doctor's BAD_RESULT, ENDS_OPENCODE and ESCAPED_ERROR findings come from calling each tool once, which the doctor
// task cannot do in its own engine (a tool that ends the engine would end the report): `tool-tester
// doctor` and the inspector (`tool-tester dev`) both add them with this, so the inspector's tool
// list shows every finding doctor prints.
import type { Finding } from "../doctor/finding.ts"
import { CALL_TIMEOUT_MS, resultFindingsOf } from "../doctor/results.ts"
import { chooseEngine } from "../engine-client/choose-engine.ts"
import { runTaskInEngine, startEngine } from "../tasks/engine-task.ts"
import type { ProjectInput } from "../tasks/task.ts"
import { exitedMessage, loadTimeoutMs } from "../tasks/task-failure.ts"
import type { DoctorPayload } from "../tasks/doctor-task.ts"
import type { RunPayload } from "../tasks/run-task.ts"
import type { SchemaPayload } from "../tasks/schema-task.ts"

/**
 * BAD_RESULT findings from one call of each tool (doctor/results.ts), each in an engine of its own
 * as `run` makes it (output captured, a tool that ends its engine ends only that one).
 */
export async function calledFindings(
  input: ProjectInput,
  engine: string | undefined,
  engineBinary: string | undefined,
  payload: DoctorPayload,
  /** The folder the command was typed in, which a relative --engine-binary is read from. */
  cwd: string,
): Promise<Finding[]> {
  // Only for tools that load and are offered: an error (a file that fails to import, a tool list
  // opencode cannot build, an unreadable config) comes first, and the calls wait for its fix.
  if (payload.tools === 0 || payload.findings.some((finding) => finding.severity === "error")) return []
  const chosen = await chooseEngine({ engine, engineBinary, env: process.env, cwd, directory: input.directory })
  const timeouts = { loadTimeoutMs: loadTimeoutMs(), runTimeoutMs: CALL_TIMEOUT_MS, graceMs: 1_000 }
  const schemas = await runTaskInEngine(
    { command: "schema", input: { ...input, tool: undefined } },
    timeouts,
    startEngine("schema", chosen.selection),
  )
  if (schemas.kind !== "done") return []
  return resultFindingsOf(
    (schemas.payload as SchemaPayload).tools,
    async (name, args) => {
      const task = {
        command: "run" as const,
        input: {
          ...input,
          name,
          args: { form: "json" as const, value: args },
          validate: false,
          deny: [],
          ask: "deny" as const,
          maxLines: undefined,
          maxBytes: undefined,
          timeoutMs: CALL_TIMEOUT_MS,
          dataDirectory: undefined,
        },
      }
      const outcome = await runTaskInEngine(task, timeouts, startEngine("run", chosen.selection))
      // A tool that ends its engine (process.exit, a signal, out of memory) would end opencode.
      if (outcome.kind === "exited" && outcome.phase === "run" && outcome.started)
        return { output: "", error: { code: "TOOL_EXITED", message: exitedMessage(outcome) } }
      if (outcome.kind !== "done") return undefined
      const { result, file } = outcome.payload as RunPayload
      return { ...result, file }
    },
    new Map(Object.entries(payload.toolFiles ?? {})),
  )
}
