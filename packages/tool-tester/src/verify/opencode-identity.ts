// Whether a binary is opencode before `verify` spends minutes on it: its `--help` lists opencode's
// commands (`opencode run`). A version number alone is no proof: Bun and Node print one too.
import { execFile } from "node:child_process"

/** opencode's start takes seconds, and much longer on a loaded machine. */
export const helpTimeoutMs = 120_000

/**
 * "opencode" when `binary --help` names `opencode run`, "other" when it answers without, "silent"
 * when it did not answer within `timeoutMs`.
 */
export function opencodeIdentity(binary: string, timeoutMs = helpTimeoutMs): Promise<"opencode" | "other" | "silent"> {
  const env = { ...process.env }
  // With it set, the binary is the Bun inside opencode, not opencode.
  delete env["BUN_BE_BUN"]
  return new Promise((resolve) => {
    execFile(binary, ["--help"], { env, timeout: timeoutMs, windowsHide: true }, (error, stdout, stderr) => {
      if (/\bopencode run\b/.test(`${stdout}\n${stderr}`)) resolve("opencode")
      else resolve(error?.killed === true ? "silent" : "other")
    })
  })
}
