// Starting `tool-tester dev` (the built bin) on a throw-away project, and Debian's chromium driven
// by playwright-core, for the inspector's browser tests. Both are stopped by the tests.
import type { ChildProcess } from "node:child_process"
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import os from "node:os"
import path from "node:path"
import type { Browser, Page } from "playwright-core"
import { chromium } from "playwright-core"
import { afterAll, beforeAll, expect, onTestFinished } from "vitest"
import { type InspectorOptions, InspectorSession } from "../../src/inspector/session.ts"
import { packageRoot } from "../helpers.ts"

/**
 * A Chromium to drive: where `apt-get install chromium` puts it (.ci/run installs it when missing),
 * else Google Chrome where Linux, macOS and Windows install it (GitHub's runners have it).
 */
const CHROMIUM = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  path.join(process.env["ProgramFiles"] ?? "C:\\Program Files", "Google", "Chrome", "Application", "chrome.exe"),
].find((file) => existsSync(file))

/** Why the browser tests skip here, or undefined when they run. */
export const noChromium = CHROMIUM
  ? undefined
  : "no chromium or Chrome found: apt-get install -y chromium (as .ci/run does), or install Google Chrome"

export function launchChromium(): Promise<Browser> {
  if (!CHROMIUM) throw new Error("chromium is not installed: apt-get install -y chromium (as .ci/run does)")
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] })
}

/** A project folder with tool files (relative path -> source) that import @opencode-ai/plugin as under .opencode/. */
export function makeProject(files: Record<string, string>): { directory: string; remove: () => void } {
  const directory = mkdtempSync(path.join(os.tmpdir(), "tool-tester-inspector-"))
  // A junction on Windows: a folder link that needs no administrator rights.
  const kind = process.platform === "win32" ? "junction" : "dir"
  symlinkSync(path.join(packageRoot, "node_modules"), path.join(directory, "node_modules"), kind)
  for (const [name, content] of Object.entries(files)) writeTool(directory, name, content)
  return { directory, remove: () => rmSync(directory, { recursive: true, force: true }) }
}

export function writeTool(directory: string, name: string, content: string): void {
  const file = path.join(directory, name)
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, content)
}

export type RunningDev = {
  url: string
  port: number
  token: string
  child: ChildProcess
  /** What dev printed so far. */
  output: () => { stdout: string; stderr: string }
  stop: () => Promise<void>
}

/** `tool-tester dev --json --no-open --no-global` in the project, with a throw-away HOME; resolves once it printed its URL. */
export function startDev(directory: string, extra: string[] = []): Promise<RunningDev> {
  if (!existsSync(path.join(packageRoot, "dist", "inspector-ui", "index.html")))
    throw new Error("Build tool-tester first: cd packages/tool-tester && npm run build")
  const home = mkdtempSync(path.join(os.tmpdir(), "tool-tester-home-"))
  const child = spawn(
    process.execPath,
    [path.join(packageRoot, "bin.js"), "dev", "--json", "--no-open", "--no-global", ...extra],
    {
      cwd: directory,
      env: { ...withoutOpencode(process.env), HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  )
  let stderr = ""
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGINT")
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000)
      await exited
      clearTimeout(timer)
    }
    rmSync(home, { recursive: true, force: true })
  }
  return new Promise((resolve, reject) => {
    let stdout = ""
    const output = () => ({ stdout, stderr })
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      const first = !stdout.includes("\n")
      stdout += chunk
      const line = stdout.split("\n")[0]
      if (!first || !stdout.includes("\n") || line === undefined) return
      const { url, port } = JSON.parse(line) as { url: string; port: number }
      resolve({ url, port, token: new URL(url).pathname.split("/")[1]!, child, output, stop })
    })
    // Ended (or never started) before printing its URL: no test gets a stop to call, so its HOME is
    // removed here. After the URL, the process has ended and its HOME serves nothing either.
    const failed = (error: Error) => {
      rmSync(home, { recursive: true, force: true })
      reject(error)
    }
    child.once("error", failed)
    child.once("exit", (code) =>
      failed(new Error(`tool-tester dev exited with ${code} before printing its URL: ${stderr}`)),
    )
  })
}

// --- internal ---

function withoutOpencode(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && !entry[0].startsWith("OPENCODE_") && entry[0] !== "NODE_OPTIONS",
    ),
  )
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/** axe-core's serious and critical findings on the page as it is now (axe is evaluated through the devtools protocol, past the page's CSP). */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(axeSource)
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: typeof import("axe-core") }).axe
    // The whole document.
    const results = await axe.run({ resultTypes: ["violations"] })
    return results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)
  })
}

/**
 * A project of `files`, `tool-tester dev` on it and a chromium, started before a describe block's
 * tests and stopped after them. Read the fields inside tests (they are set by then).
 */
export function useInspectorSession(files: Record<string, string>): {
  project: { directory: string; remove: () => void }
  dev: RunningDev
  browser: Browser
} {
  const session = {} as { project: { directory: string; remove: () => void }; dev: RunningDev; browser: Browser }
  beforeAll(async () => {
    session.project = makeProject(files)
    session.dev = await startDev(session.project.directory)
    session.browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await session.browser?.close()
    await session.dev?.stop()
    session.project?.remove()
  }, 60_000)
  return session
}

/**
 * An inspector session (without a browser) on a project of `files`, with no watcher unless
 * `options` says otherwise, started; the session is closed and the project removed when the test
 * finishes.
 */
export async function startedSession(
  files: Record<string, string>,
  options: Partial<InspectorOptions> = {},
): Promise<{ session: InspectorSession; directory: string }> {
  const project = makeProject(files)
  const session = new InspectorSession({
    directory: project.directory,
    cwd: project.directory,
    global: false,
    engine: "node",
    watch: false,
    ...options,
  })
  onTestFinished(async () => {
    await session.close()
    project.remove()
  })
  await session.start()
  return { session, directory: project.directory }
}

/** A new page of `browser` (1440x900) at the inspector's `url`, with the tool `name` picked. */
export async function pageOnTool(browser: Browser, url: string, name: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  await page.goto(url)
  await page.locator(`[data-tool="${name}"]`).click()
  return page
}

/** A page opened at `url`, once its event stream is live. */
export async function openedLive(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await expect.poll(() => page.locator('[data-testid="connection"]').textContent(), { timeout: 60_000 }).toBe("live")
}

/** The status the page's history shows for call `id`, or null while it lists no such call. */
export function historyStatus(page: Page, id: number): Promise<string | null> {
  return page
    .locator(`[data-history="${id}"] [data-status]`)
    .getAttribute("data-status", { timeout: 1_000 })
    .catch(() => null)
}
