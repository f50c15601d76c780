// Whether a binary is opencode, before `verify` spends minutes on it, or once an e2e run never
// reached the model: its `--help` lists opencode's commands (`opencode run`). A version number
// alone is no proof: Bun and Node print one too.
import { programOutput } from "../runtime/program-output.ts"

/** opencode's start takes seconds, and much longer on a loaded machine. */
export const helpTimeoutMs = 120_000

/**
 * "opencode" when `binary --help` names `opencode run`, "other" when it answers without, "silent"
 * when it did not answer within `timeoutMs` (then it is ended with what it started). Started as
 * every program is (start-program.ts: a `.cmd` on Windows too).
 */
export async function opencodeIdentity(
  binary: string,
  timeoutMs = helpTimeoutMs,
): Promise<"opencode" | "other" | "silent"> {
  const env = { ...process.env }
  // With it set, the binary is the Bun inside opencode, not opencode.
  delete env["BUN_BE_BUN"]
  const answer = await programOutput(binary, ["--help"], { env, timeout: timeoutMs })
  if (/\bopencode run\b/.test(`${answer.stdout}\n${answer.stderr}`)) return "opencode"
  return answer.timedOut ? "silent" : "other"
}
