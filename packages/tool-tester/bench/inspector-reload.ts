// From a save of a TypeScript tool file to the new result on the inspector's page, with the bun
// engine: the watcher's event, a fresh load of the project in a new Bun process, the last call
// run again, the event stream, and the page's render, as the page itself sees it.
//
// Run from packages/tool-tester, after building:  npm run build && node --import tsx bench/inspector-reload.ts [--rounds N]
//
// One throw-away project with one TypeScript tool made with tool(). The inspector (the library's
// server, as `tool-tester dev` starts it) serves it on 127.0.0.1; Debian's chromium opens the page
// (playwright-core) and runs one call. Each round rewrites the tool file so it returns a new text,
// and the page reports, from a MutationObserver, when the model's view shows that text; the figure
// is that time minus the time of the write, both on the wall clock. Baseline, in the same run,
// interleaved round by round, on copies of the project: the same reload through the library alone
// (loadTools with the bun engine, runTool, closeProject of the previous project), once with a new
// Bun started by the load (the baseline: what a reload costs without the inspector's engine started
// ahead) and once with an engine started ahead as the inspector does (what the watcher, server
// and page add is the page's figure minus this one). Median and p90 of N rounds (default 30).
//
// Target: median <= 150 ms from save to the new result on the page. Also printed: the page's
// JavaScript and CSS, gzipped (target: JavaScript <= 100 KB).

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { chromium } from "playwright-core"
import { benchArgs } from "../../../bench/_args.mjs"
import { prestartEngine } from "../src/engine-client/remote-project.ts"
import type { ToolProject } from "../src/index.ts"
import { closeProject, loadTools, runTool } from "../src/index.ts"
import { startInspector } from "../src/inspector/server.ts"
import { ms, quantile } from "./_stats.ts"

const rounds = benchArgs(import.meta.url, { rounds: { type: "string", default: "30" } }).count("rounds")
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const assetFolder = path.join(packageRoot, "dist", "inspector-ui")

const tool = (text: string) => `import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Says what it was last saved to say",
  args: { name: tool.schema.string() },
  async execute(args) {
    return ${JSON.stringify(text)} + " " + args.name
  },
})
`

const pageProject = createProject()
const baselineProject = createProject()
const aheadProject = createProject()
const inspector = await startInspector({
  directory: pageProject,
  global: false,
  engine: "bun",
  cwd: pageProject,
  assetFolder,
})
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] })
try {
  const engine = inspector.session.view()?.engine
  if (engine?.name !== "bun") throw new Error(`asked for the bun engine, got ${JSON.stringify(engine)}`)
  const page = await browser.newPage()
  await page.goto(inspector.url)
  await page.locator('[data-tool="say"]').waitFor()
  await page.locator('[data-field="name"]').fill("Ada")
  await page.locator('[data-testid="run"]').click()
  await page.locator('[data-testid="model-view"]', { hasText: "version 0 Ada" }).waitFor()

  let baseline: ToolProject | undefined
  let ahead: ToolProject | undefined
  const pageTimes: number[] = []
  const baselineTimes: number[] = []
  const aheadTimes: number[] = []
  console.log(
    `save of a TypeScript tool -> new result, ${rounds} rounds, interleaved (Node ${process.version}; bun ${engine.version}, ${engine.binary})\n`,
  )
  for (let round = 1; round <= rounds; round++) {
    const text = `version ${round}`
    // The page: armed before the save, it notes the moment it shows the new text.
    // A statement, not an expression: evaluate would wait for the promise.
    await page.evaluate(`void (window.seen = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (document.querySelector('[data-testid="model-view"]')?.textContent === ${JSON.stringify(`${text} Ada`)}) {
          observer.disconnect()
          resolve(performance.timeOrigin + performance.now())
        }
      })
      observer.observe(document.body, { subtree: true, childList: true, characterData: true })
    }))`)
    const savedAt = performance.timeOrigin + performance.now()
    writeFileSync(path.join(pageProject, ".opencode", "tools", "say.ts"), tool(text))
    const shownAt = (await page.evaluate("window.seen")) as number
    pageTimes.push(shownAt - savedAt)

    // The baseline: the same reload and call through the library alone.
    writeFileSync(path.join(baselineProject, ".opencode", "tools", "say.ts"), tool(text))
    const startedAt = performance.now()
    const previous = baseline
    baseline = await loadTools({ directory: baselineProject, global: false, engine: "bun" })
    if (previous) closeProject(previous)
    const result = await runTool(baseline, "say", { name: "Ada" })
    baselineTimes.push(performance.now() - startedAt)
    if (result.output !== `${text} Ada`) throw new Error(`baseline read ${JSON.stringify(result.output)}`)

    // The library as the inspector uses it: an engine started ahead of the save.
    prestartEngine({ name: "bun", location: { binary: engine.binary, source: "option" } }, aheadProject, "inherit")
    await new Promise((resolve) => setTimeout(resolve, 300))
    writeFileSync(path.join(aheadProject, ".opencode", "tools", "say.ts"), tool(text))
    const aheadStartedAt = performance.now()
    const before = ahead
    ahead = await loadTools({ directory: aheadProject, global: false, engine: "bun" })
    if (before) closeProject(before)
    const aheadResult = await runTool(ahead, "say", { name: "Ada" })
    aheadTimes.push(performance.now() - aheadStartedAt)
    if (aheadResult.output !== `${text} Ada`)
      throw new Error(`engine started ahead read ${JSON.stringify(aheadResult.output)}`)
  }
  if (baseline) closeProject(baseline)
  if (ahead) closeProject(ahead)

  const row = (label: string, times: number[]) =>
    `${label.padEnd(52)} median ${ms(quantile(times, 0.5)).padStart(7)}   p90 ${ms(quantile(times, 0.9)).padStart(7)}`
  console.log(row("save -> new result on the page (tool-tester dev)", pageTimes))
  console.log(row("library, engine started ahead (as dev does)", aheadTimes))
  console.log(row("baseline: library, a new Bun per load", baselineTimes))
  const median = quantile(pageTimes, 0.5)
  console.log(`what the watcher, server and page add: ${ms(median - quantile(aheadTimes, 0.5))} (median minus median)`)
  console.log(
    `what the engine started ahead saves: ${ms(quantile(baselineTimes, 0.5) - quantile(aheadTimes, 0.5))} (median minus median)`,
  )
  console.log(`target: median <= 150 ms: ${median <= 150 ? "met" : "NOT met"}\n`)

  const assets = readdirSync(path.join(assetFolder, "assets"))
  const size = (extension: string) =>
    assets
      .filter((name) => name.endsWith(extension))
      .reduce((total, name) => total + gzipSync(readFileSync(path.join(assetFolder, "assets", name))).length, 0)
  const js = size(".js")
  console.log(
    `page JavaScript, gzipped: ${(js / 1024).toFixed(1)} KB (target <= 100 KB: ${js <= 100 * 1024 ? "met" : "NOT met"})`,
  )
  console.log(`page CSS, gzipped: ${(size(".css") / 1024).toFixed(1)} KB`)
} finally {
  await browser.close()
  await inspector.close()
  rmSync(pageProject, { recursive: true, force: true })
  rmSync(baselineProject, { recursive: true, force: true })
  rmSync(aheadProject, { recursive: true, force: true })
}

function createProject(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), "tool-tester-bench-inspector-"))
  symlinkSync(path.join(packageRoot, "node_modules"), path.join(directory, "node_modules"), "dir")
  mkdirSync(path.join(directory, ".opencode", "tools"), { recursive: true })
  writeFileSync(path.join(directory, ".opencode", "tools", "say.ts"), tool("version 0"))
  return directory
}
