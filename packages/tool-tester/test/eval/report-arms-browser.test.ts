// The eval page with arms beside the normal run (`--variants`, `--without`: issue 37) in a real
// browser, checked with axe-core as report-browser.test.ts checks the page without them.
import { writeFileSync } from "node:fs"
import path from "node:path"
import { pathToFileURL } from "node:url"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { compareWithPrevious, renderEvalHtml, summarizeTrials } from "../../src/eval/report/index.ts"
import type { EvalRun, GradedTrial } from "../../src/eval/types.ts"
import { useTmpDir } from "../helpers.ts"
import { launchChromium, noChromium, seriousViolations } from "../inspector/_inspector.ts"
import { cases, failedTrial, tools, trial } from "./_report-sample.ts"

const skipped = noChromium === undefined ? "" : ` (skipped: ${noChromium})`
describe.skipIf(noChromium !== undefined)(
  `the eval page with variants and --without runs${skipped}`,
  { timeout: 120_000 },
  () => {
    let browser: Browser

    beforeAll(async () => {
      browser = await launchChromium()
    }, 120_000)

    afterAll(async () => {
      await browser?.close()
    })

    test("shows each arm beside the normal run, names the winner and the fallback, with no serious axe finding", async () => {
      const model = "keyword/model"
      const runs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
      const answeredInText = (run: number, arm: string): GradedTrial => ({
        ...failedTrial({ case: "weather-paris", model, run }, "expected weather; answered in text"),
        arm,
        turns: [{ prompt: "What is the weather in Paris?", calls: [], text: "I cannot look that up." }],
      })
      const trials: GradedTrial[] = [
        ...runs.map((run) => trial({ case: "weather-paris", model, run })),
        ...runs.map((run) => answeredInText(run, "vague")),
        ...runs.map((run) => answeredInText(run, "without weather")),
      ]
      const run: EvalRun = {
        id: "2026-12-02T08-00-00-arms01",
        startedAt: "2026-12-02T08:00:00.000Z",
        durationMs: 42_000,
        opencodeVersion: "1.18.34",
        results: summarizeTrials(cases, trials, { [model]: tools[model] ?? [] }),
      }
      const file = path.join(useTmpDir("tool-tester-eval-arms-"), "eval.html")
      writeFileSync(file, renderEvalHtml(run, compareWithPrevious(run.results, []), []))

      const page = await browser.newPage()
      for (const width of [1440, 1024]) {
        await page.setViewportSize({ width, height: 900 })
        await page.goto(pathToFileURL(file).href)
        // The matrix is the normal run only; the arms come below it.
        expect(await page.locator("table.matrix tbody td .rate").allTextContents()).toEqual(["10/10"])
        // innerText: what is rendered is the point.
        const arms = await page.locator("ul.arms").allInnerTexts()
        expect(arms).toHaveLength(2)
        expect(arms[0]).toContain("current 10/10")
        expect(arms[0]).toContain("vague 0/10")
        expect(arms[0]).toMatch(/current wins|winner: current/)
        expect(arms[1]).toContain("without 0/10")
        expect(arms[1]).toContain("answered in text")
        expect(await seriousViolations(page)).toEqual([])
      }
      await page.close()
    })
  },
)
