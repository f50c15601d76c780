// Whether a binary is opencode before `verify` spends minutes on it: its `--help` lists opencode's
// commands (`opencode run`). A version number alone is no proof: Bun and Node print one too.
import { execFile } from "node:child_process"

/** True when `binary --help` names `opencode run` (within 30 s). */
export function isOpencodeBinary(binary: string): Promise<boolean> {
  const env = { ...process.env }
  // With it set, the binary is the Bun inside opencode, not opencode.
  delete env["BUN_BE_BUN"]
  return new Promise((resolve) => {
    execFile(binary, ["--help"], { env, timeout: 30_000, windowsHide: true }, (_error, stdout, stderr) => {
      resolve(/\bopencode run\b/.test(`${stdout}\n${stderr}`))
    })
  })
}
