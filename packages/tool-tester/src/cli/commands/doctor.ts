import type { StartedEngine } from "../../engine/engine-task.ts"
import type { DoctorPayload } from "../../tasks/doctor-task.ts"
import type { CliIO } from "../_command.ts"
import { exitForProblems, PROJECT_FLAGS, parseFlags, performTask, projectInput } from "../_command.ts"
import { formatEngine, formatFindings } from "../report.ts"

/** `tool-tester doctor`: every reason a tool will not work in opencode, one line each; exit 3 when one is an error. */
export async function doctorCommand(argv: string[], io: CliIO, worker?: StartedEngine): Promise<number> {
  const { values } = parseFlags({ args: argv, options: PROJECT_FLAGS }, { command: "doctor" })
  const json = values.json === true
  const input = { ...projectInput(values, {}, io), cwd: io.cwd }
  const task = await performTask<DoctorPayload>(io, json, { command: "doctor", input }, worker)
  if (task.exitCode !== undefined) return task.exitCode
  const { findings } = task.payload
  if (json) io.write(`${JSON.stringify({ findings, engine: task.engine.info })}\n`)
  else {
    io.write(formatFindings(findings, task.payload, io.cwd))
    io.writeError(formatEngine(task.engine))
  }
  return exitForProblems(io, json, findings)
}
