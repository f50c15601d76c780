// The eval page in a real browser: Debian's chromium driven by playwright-core (as the inspector's
// browser tests do), checked with axe-core, with screenshots at 1024 and 1440 px saved under
// .tmp/screenshots (ignored by git).
import { mkdirSync, writeFileSync } from "node:fs"
import path from "node:path"
import { pathToFileURL } from "node:url"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { compareWithPrevious, renderEvalHtml, summarizeTrials } from "../../src/eval/report/index.ts"
import type { EvalRun, GradedTrial, HistoryEntry } from "../../src/eval/types.ts"
import { packageRoot, useTmpDir } from "../helpers.ts"
import { launchChromium, noChromium, seriousViolations } from "../inspector/_inspector.ts"
import { cases, docsExample, failedTrial, sampleRun, tools, trial } from "./_report-sample.ts"

const screenshots = path.join(packageRoot, ".tmp", "screenshots")
// With UPDATE_SCREENSHOTS=1 the one docs/evals.md shows is replaced, in docs/images.
const docsImages =
  process.env["UPDATE_SCREENSHOTS"] === "1" ? path.join(packageRoot, "..", "..", "docs", "images") : screenshots
const skipped = noChromium === undefined ? "" : ` (skipped: ${noChromium})`
describe.skipIf(noChromium !== undefined)(`the eval page in chromium${skipped}`, { timeout: 120_000 }, () => {
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    browser = await launchChromium()
    page = await browser.newPage()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
  })

  test("renders the table, opens a cell to its trials and diff, requests nothing, and has no serious axe finding", async () => {
    const { run, history } = richRun()
    const file = path.join(useTmpDir("tool-tester-eval-page-"), "eval.html")
    writeFileSync(file, renderEvalHtml(run, compareWithPrevious(run.results, history), history))
    const requests: string[] = []
    page.on("request", (request) => {
      if (!request.url().startsWith("file:")) requests.push(request.url())
    })
    const dialogs: string[] = []
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })

    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(pathToFileURL(file).href)
    expect(await page.title()).toBe("tool-tester eval: 7/14 trials passed (2026-12-01 19:00:00 UTC)")
    const header = await page.locator("table.matrix thead th").allTextContents()
    expect(header).toEqual(["Case", "anthropic/claude-sonnet-4-5", "openai/gpt-5", "mock/scripted"])
    const rates = await page.locator("table.matrix tbody td .rate").allTextContents()
    expect(rates).toEqual(["1/3", "3/3", "1/1", "0/3", "2/3", "not run", "0/1", "not run", "not run"])
    expect(await seriousViolations(page)).toEqual([])
    mkdirSync(screenshots, { recursive: true })
    await page.screenshot({ path: path.join(screenshots, "eval-report-1440.png"), fullPage: true })

    // Open the first cell: its trials, the reason it failed, and the description diff.
    const cell = page.locator("table.matrix tbody td.cell > details").first()
    await cell.locator(":scope > summary").click()
    await expect.poll(() => cell.evaluate((details) => (details as unknown as { open: boolean }).open)).toBe(true)
    // biome-ignore lint/performance/useDomNodeTextContent: what is rendered is the point (a closed <details> shows none of it).
    const opened = await cell.innerText()
    expect(opened).toContain("Tools changed since then")
    expect(opened).toContain("- Weather for a city")
    expect(opened).toContain("+ Current weather for a city")
    expect(opened).toContain('called bash({"command":"curl wttr.in/Paris"})')
    expect(await cell.locator("ol.trials > li").count()).toBe(3)
    // The hostile text in the third case is shown as text: no script ran, nothing was injected.
    await page.locator("table.matrix tbody tr").nth(2).locator("summary").first().click()
    const hostileRow = page.locator("table.matrix tbody tr").nth(2)
    // biome-ignore lint/performance/useDomNodeTextContent: what is rendered is the point: the markup shows as text.
    expect(await hostileRow.innerText()).toContain('<img src=x onerror="alert(1)">')
    expect(await page.locator("img, script, iframe").count()).toBe(0)
    expect(await seriousViolations(page)).toEqual([])

    await page.setViewportSize({ width: 1024, height: 900 })
    await page.screenshot({ path: path.join(screenshots, "eval-report-1024.png"), fullPage: true })
    await page.emulateMedia({ colorScheme: "dark" })
    expect(await seriousViolations(page)).toEqual([])
    await page.screenshot({ path: path.join(screenshots, "eval-report-1024-dark.png"), fullPage: true })
    await page.emulateMedia({ colorScheme: "light" })

    // The page fits the narrower window: no sideways scrolling of the whole page.
    const scrollWidth = () =>
      (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
        .scrollWidth
    expect(await page.evaluate(scrollWidth)).toBeLessThanOrEqual(1024)
    expect(requests).toEqual([])
    expect(dialogs).toEqual([])
  })

  test("the run docs/evals.md shows, with a cell open (the screenshot the docs use)", async () => {
    const { run, history } = docsExample()
    const file = path.join(useTmpDir("tool-tester-eval-page-"), "eval.html")
    writeFileSync(file, renderEvalHtml(run, compareWithPrevious(run.results, history), history))
    await page.emulateMedia({ colorScheme: "light" })
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(pathToFileURL(file).href)
    const cell = page.locator("table.matrix tbody td.cell > details").first()
    await cell.locator(":scope > summary").click()
    // biome-ignore lint/performance/useDomNodeTextContent: what is rendered is the point (a closed <details> shows none of it).
    expect(await cell.innerText()).toContain('called webfetch({url: "https://wttr.in/Paris?format=3"})')
    expect(await page.locator("svg.trend").first().getAttribute("aria-label")).toBe(
      "Pass rate of the last 6 runs, oldest first: 5/5, 5/5, 5/5, 5/5, 5/5, 3/5",
    )
    expect(await seriousViolations(page)).toEqual([])
    mkdirSync(docsImages, { recursive: true })
    await page.screenshot({ path: path.join(docsImages, "eval-report.png") })
  })
})

// --- internal ---

/** Three cases on three models, with five earlier runs in the history and a model that wrote hostile text. */
function richRun(): { run: EvalRun; history: HistoryEntry[] } {
  const { history: sampleHistory } = sampleRun()
  const sonnet = "anthropic/claude-sonnet-4-5"
  const gpt = "openai/gpt-5"
  const tokens = (input: number, output: number) => ({ input, output, reasoning: 0, cacheRead: 0, cacheWrite: 0 })
  const trials: GradedTrial[] = [
    trial({ case: "weather-paris", model: sonnet, run: 1, tokens: tokens(5210, 48), cost: 0.0163, durationMs: 3400 }),
    failedTrial({ case: "weather-paris", model: sonnet, run: 2 }),
    failedTrial({ case: "weather-paris", model: sonnet, run: 3 }),
    ...[1, 2, 3].map((run) =>
      trial({ case: "weather-paris", model: gpt, run, tokens: tokens(4890, 120), cost: 0.0071, durationMs: 5200 }),
    ),
    trial({ case: "weather-paris", model: "mock/scripted", run: 1, durationMs: 700 }),
    ...[1, 2, 3].map((run) =>
      trial({
        case: "forecast-then-weather",
        model: sonnet,
        run,
        durationMs: 61_000,
        error: { code: "RATE_LIMITED", message: "429 Too Many Requests: rate limit of 50 requests per minute reached" },
        grade: { pass: false, reasons: [] },
        turns: [],
      }),
    ),
    trial({
      case: "forecast-then-weather",
      model: gpt,
      run: 1,
      turns: [
        {
          prompt: "Forecast for Oslo",
          calls: [{ tool: "forecast", args: { city: "Oslo", days: 3 }, status: "completed", output: "rain" }],
          text: "Rain for three days.",
        },
        {
          prompt: "And now?",
          calls: [{ tool: "weather", args: { city: "Oslo" }, status: "completed", output: "cloudy" }],
          text: "Cloudy.",
        },
      ],
    }),
    trial({ case: "forecast-then-weather", model: gpt, run: 2 }),
    failedTrial(
      { case: "forecast-then-weather", model: gpt, run: 3 },
      'turn 2: expected weather; called forecast({"city":"Oslo"}), which the case forbids',
    ),
    trial({
      case: "hostile-text",
      model: sonnet,
      run: 1,
      turns: [
        {
          prompt: "Say something odd",
          calls: [
            {
              tool: "bash",
              args: { command: "<script>alert(1)</script>" },
              status: "error",
              error: "denied by permission",
            },
          ],
          text: '<img src=x onerror="alert(1)"> \u202eevil',
        },
      ],
      grade: { pass: false, reasons: ['expected no call; called bash({"command":"<script>alert(1)</script>"})'] },
    }),
  ]
  const allCases = [...cases, { name: "hostile-text", prompt: "Say something odd", expect: { notCalled: ["bash"] } }]
  const offered = {
    [sonnet]: tools["keyword/model"] ?? [],
    [gpt]: tools["keyword/model"] ?? [],
    "mock/scripted": tools["mock/scripted"] ?? [],
  }
  const run: EvalRun = {
    id: "2026-12-01T19-00-00-abc123",
    startedAt: "2026-12-01T19:00:00.000Z",
    durationMs: 187_000,
    opencodeVersion: "1.18.34",
    results: summarizeTrials(allCases, trials, offered),
  }
  // Five earlier runs of each case x model, the last with the weather tool's older description.
  const older = sampleHistory[0]?.tools ?? []
  const history: HistoryEntry[] = []
  for (let index = 0; index < 5; index++) {
    for (const result of run.results) {
      history.push({
        runId: `run-${index}`,
        startedAt: new Date(Date.UTC(2026, 10, 25 + index, 10)).toISOString(),
        case: result.case,
        model: result.model,
        runs: 3,
        passed: (index + result.case.length) % 4 === 0 ? 1 : 3,
        tools: result.model === sonnet ? older : result.tools,
        failures: [],
      })
    }
  }
  return { run, history }
}
