// A folder holding one program that exits 0, as the only entry of a PATH: what a command name
// (`--opencode my-opencode`, `--engine-binary my-bun`) is looked up in. On Windows the program is a
// `.cmd` found by PATHEXT, as npm's shims are. The folder goes when the test ends.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { onTestFinished } from "vitest"

export function programOnPath(name: string): { file: string; env: { PATH: string; PATHEXT: string } } {
  const bin = mkdtempSync(path.join(tmpdir(), `${name}-on-path-`))
  onTestFinished(() => rmSync(bin, { recursive: true, force: true }))
  const file = path.join(bin, process.platform === "win32" ? `${name}.cmd` : name)
  writeFileSync(file, process.platform === "win32" ? "@exit /b 0\r\n" : "#!/bin/sh\nexit 0\n")
  chmodSync(file, 0o755)
  return { file, env: { PATH: bin, PATHEXT: ".cmd" } }
}
