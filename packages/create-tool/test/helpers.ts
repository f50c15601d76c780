import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs"
import { homedir, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { onTestFinished } from "vitest"
import { isolatedHome } from "../../tool-tester/test/support/isolated-home.ts"
import { runCommandLine } from "../src/_run-command-line.ts"

export const packageDirectory = fileURLToPath(new URL("..", import.meta.url))
export const workspaceDirectory = fileURLToPath(new URL("../../..", import.meta.url))
export const binFile = join(packageDirectory, "bin.js")
export const templatesDirectory = join(workspaceDirectory, "templates")

/**
 * The workspace's opencode binary for this platform (the package scripts/install-opencode.mjs adds
 * off Linux), found as tool-tester finds it (its built e2e entry), or why there is none: tests that
 * need it skip with that reason in their name.
 */
export const workspaceOpencode: { binary: string; reason: "" } | { binary: undefined; reason: string } =
  await findWorkspaceOpencode()

async function findWorkspaceOpencode(): Promise<
  { binary: string; reason: "" } | { binary: undefined; reason: string }
> {
  const { findOpencode } = (await import(
    pathToFileURL(join(workspaceDirectory, "packages/tool-tester/dist/e2e/index.js")).href
  )) as { findOpencode(options: { path: boolean }): string | undefined }
  const binary = findOpencode({ path: false })
  if (binary !== undefined) return { binary, reason: "" }
  return {
    binary: undefined,
    reason: ` (skipped: no opencode binary for ${process.platform}-${process.arch}: run node scripts/install-opencode.mjs)`,
  }
}

/** A fresh temporary folder, removed when the test finishes. */
/** The commands under "Next steps:" in what create-tool printed, one per line, trimmed. */
export function nextStepCommands(stdout: string): string[] {
  const lines = stdout.split("\n")
  const start = lines.indexOf("Next steps:")
  if (start === -1) throw new Error(`no "Next steps:" in:\n${stdout}`)
  return lines.slice(start + 1, lines.indexOf("", start)).map((line) => line.trim())
}

export function useTmpDir(prefix = "create-tool-"): string {
  const directory = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  onTestFinished(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

/**
 * A home folder for one command line that names none in its `env`: removed when the test finishes,
 * or, for a command run outside a test (in a beforeAll), when this process exits.
 */
function throwAwayHome(): string {
  const directory = realpathSync(mkdtempSync(join(tmpdir(), "create-tool-home-")))
  try {
    onTestFinished(() => rmSync(directory, { recursive: true, force: true }))
  } catch {
    if (homesAtExit.length === 0)
      process.once("exit", () => {
        for (const home of homesAtExit) rmSync(home, { recursive: true, force: true })
      })
    homesAtExit.push(directory)
  }
  return directory
}
const homesAtExit: string[] = []

export type Run = { code: number; stdout: string; stderr: string }

/** Runs a command to its end; never rejects on a non-zero exit. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined>; input?: string; timeout?: number },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      [...args],
      {
        cwd: options.cwd,
        env: { ...cleanEnvironment(), ...options.env },
        timeout: options.timeout ?? 120_000,
        maxBuffer: 20 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== "number") return reject(error)
        resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr })
      },
    )
    if (options.input !== undefined) child.stdin?.end(options.input)
    else child.stdin?.end()
  })
}

/**
 * Runs a create-tool command line with stdin not a terminal (so it never asks), in this process:
 * the code the bin runs (src/_run-command-line.ts), with the environment the bin would get
 * (cleanEnvironment, a throw-away home: HOME, USERPROFILE, APPDATA and the XDG folders, then `env`),
 * `cwd` as its working folder and the home folder `env` names: the developer's own global tools
 * never count as duplicates. The built bin itself is runBin, for what only it shows (its exit
 * status, its streams).
 */
export async function runCli(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<Run> {
  const env = { ...cleanEnvironment(), ...isolatedHome(options.env?.["HOME"] ?? throwAwayHome()), ...options.env }
  let stdout = ""
  let stderr = ""
  const code = await runCommandLine({
    argv: args,
    env,
    cwd: options.cwd,
    // Where os.homedir() looks first in the bin's process.
    home: (process.platform === "win32" ? env["USERPROFILE"] : env["HOME"]) || homedir(),
    terminal: false,
    stdoutIsTTY: false,
    write: (text) => {
      stdout += text
    },
    writeError: (text) => {
      stderr += text
    },
  })
  return { code, stdout, stderr }
}

/** Runs the built create-tool bin (`node bin.js ...`) with stdin not a terminal, so it never asks, and a throw-away home as runCli. */
export function runBin(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<Run> {
  const home = options.env?.["HOME"] ?? throwAwayHome()
  return run(process.execPath, [binFile, ...args], { ...options, env: { ...isolatedHome(home), ...options.env } })
}

/** The ids listed under "Tool ids opencode will see:" in create-tool's output. */
export function printedToolIds(stdout: string): string[] {
  const lines = stdout.split("\n")
  const start = lines.indexOf("Tool ids opencode will see:")
  if (start === -1) throw new Error(`No tool ids in the output:\n${stdout}`)
  const ids: string[] = []
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === "") break
    ids.push(line.trim())
  }
  return ids
}

/**
 * Makes the workspace's packages resolvable from a generated project, without a network: symlinks
 * in `<folder>/node_modules` to @opencode-ai/plugin, @opencode-ai/tool-tester, vitest, typescript
 * and @types/node, plus `.bin/tsc` and `.bin/vitest` for the generated package.json scripts.
 */
export function linkWorkspacePackages(folder: string): void {
  const modules = join(folder, "node_modules")
  const links: Record<string, string> = {
    "@opencode-ai/plugin": join(workspaceDirectory, "packages/plugin"),
    "@opencode-ai/tool-tester": join(workspaceDirectory, "packages/tool-tester"),
    // Where npm, yarn, bun (and pnpm, with the plugin's pnpm-workspace.yaml) put @opencode-ai/plugin's zod.
    zod: realpathSync(join(workspaceDirectory, "packages/plugin/node_modules/zod")),
    vitest: realpathSync(join(workspaceDirectory, "node_modules/vitest")),
    typescript: realpathSync(join(workspaceDirectory, "node_modules/typescript")),
    "@types/node": realpathSync(join(workspaceDirectory, "node_modules/@types/node")),
    "@types/bun": realpathSync(join(workspaceDirectory, "node_modules/@types/bun")),
    ".bin/tsc": realpathSync(join(workspaceDirectory, "node_modules/typescript/bin/tsc")),
    ".bin/vitest": realpathSync(join(workspaceDirectory, "node_modules/vitest/vitest.mjs")),
  }
  for (const [name, target] of Object.entries(links)) {
    mkdirSync(dirname(join(modules, name)), { recursive: true })
    symlinkSync(target, join(modules, name))
  }
}

/** The environment of this process without what the surrounding vitest run sets for its workers. */
export function cleanEnvironment(): Record<string, string | undefined> {
  const environment: Record<string, string | undefined> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(VITEST|TEST$|NODE_OPTIONS$|npm_|FORCE_COLOR$)/.test(key)) continue
    environment[key] = value
  }
  return { ...environment, NO_COLOR: "1", CI: "true" }
}

/** The call that starts at `start` in `code`, up to its closing parenthesis. */
export function callText(code: string, start: number): string {
  let depth = 0
  for (let index = code.indexOf("(", start); index < code.length; index++) {
    if (code[index] === "(") depth++
    if (code[index] === ")" && --depth === 0) return code.slice(start, index + 1)
  }
  return code.slice(start)
}
