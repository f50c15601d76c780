// Spawning the package managers: async (installs take minutes, and a blocked worker cannot talk to
// vitest), each with an explicit time limit that ends the command's whole process group.
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { onTestFinished } from "vitest"
import { killGroup } from "../../packages/tool-tester/test/support/processes.ts"

export type RunResult = { status: number | null; stdout: string; stderr: string }

export type RunOptions = {
  cwd: string
  /** Ends the command (and what it started) after this long; the result then has status null. */
  timeout: number
  env?: Record<string, string | undefined>
}

export function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk
    })
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
    })
    const timer = setTimeout(() => {
      stderr += `\n[ended after ${options.timeout} ms: ${command} ${args.join(" ")}]`
      killGroup(child.pid)
    }, options.timeout)
    child.on("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on("close", (status) => {
      clearTimeout(timer)
      resolve({ status, stdout, stderr })
    })
  })
}

/** What a command printed, for an assertion message. */
export function describeRun(result: RunResult): string {
  return `exit ${result.status}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`
}

/**
 * The environment of a newcomer's terminal: none of the npm_*, pnpm and vitest variables this test
 * runs under (a package manager reads them as its own settings), no opencode settings, colour off,
 * and an empty global config folder, so only the project's tools are found.
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {}
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase()
    if (lower.startsWith("npm_") || lower.startsWith("pnpm_") || lower.startsWith("vitest")) continue
    if (key.startsWith("OPENCODE_") || key.startsWith("TOOL_TESTER_")) continue
    if (["INIT_CWD", "NODE_ENV", "TEST", "NODE_OPTIONS", "FORCE_COLOR"].includes(key)) continue
    env[key] = value
  }
  return { ...env, NO_COLOR: "1", CI: "true", ...extra }
}

/**
 * A temporary folder, removed when the test ends. A concurrent test passes its context's
 * `onTestFinished`: vitest does not track concurrent tests in the imported one.
 */
export function useTmpDir(prefix: string, finished: typeof onTestFinished = onTestFinished): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), prefix))
  finished(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

/** Writes files (path relative to `root` -> text) under `root`, making their folders. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
}
