// The inspector's tool list shows every finding doctor prints (BAD_RESULT too, which comes from
// calling the tool), and the page at the two common laptop widths, saved as screenshots to look at.
import path from "node:path"
import { describe, expect, test } from "vitest"
import { packageRoot } from "../helpers.ts"
import { noChromium, seriousViolations, useInspectorSession } from "./_inspector.ts"

const answer = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Returns a number, which opencode cannot send",
  args: {},
  async execute() { return 42 as unknown as string },
})
`

const repeat = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Greets as often as asked",
  args: { name: tool.schema.string().describe("Who to greet"), times: tool.schema.number().int().min(1) },
  async execute(args) { return ("Hello " + args.name + "! ").repeat(args.times) },
})
`

const skipped = noChromium === undefined ? "" : ` (skipped: ${noChromium})`
describe.skipIf(noChromium !== undefined)(`the inspector's findings and widths${skipped}`, { timeout: 180_000 }, () => {
  const session = useInspectorSession({ ".opencode/tools/answer.ts": answer, ".opencode/tools/repeat.ts": repeat })

  test("a tool returning 42 shows doctor's BAD_RESULT in the tool list", async () => {
    const page = await session.browser.newPage({ viewport: { width: 1440, height: 900 } })
    await page.goto(session.dev.url)
    await page.locator('[data-tool="answer"]').waitFor({ timeout: 30_000 })
    const finding = page.locator('[data-problem="BAD_RESULT"]')
    await expect.poll(() => finding.count(), { timeout: 90_000 }).toBeGreaterThan(0)
    expect(await finding.first().textContent()).toContain("answer")
    await page.close()
  })

  test.each([1024, 1440])(
    "at %i px: a fresh form starts valid, screenshot saved, axe finds nothing serious",
    async (width) => {
      const page = await session.browser.newPage({ viewport: { width, height: 800 } })
      await page.goto(session.dev.url)
      await page.locator('[data-tool="repeat"]').click()
      const times = page.locator('[data-testid="call-form"]:visible [data-field="times"]')
      await expect.poll(() => times.inputValue(), { timeout: 30_000 }).toBe("1")
      // The argument-mode buttons sit on one line, each label on one line.
      const modes = page.locator('[data-testid="call-form"]:visible [data-mode]')
      const boxes = await modes.evaluateAll((buttons) => buttons.map((button) => button.getBoundingClientRect()))
      expect(new Set(boxes.map((box) => Math.round(box.top))).size).toBe(1)
      expect(Math.max(...boxes.map((box) => box.height))).toBeLessThan(32)
      // No wide, mostly-empty call column beside a narrow result column: they share the width.
      const widthOf = (selector: string) =>
        page.locator(selector).evaluate((element) => element.getBoundingClientRect().width)
      const main = await widthOf("main")
      const side = await widthOf(".layout > .side")
      expect(side).toBeGreaterThanOrEqual(380)
      expect(main / side).toBeLessThan(1.2)
      await page.screenshot({
        path: path.join(packageRoot, ".tmp", "screenshots", `inspector-${width}.png`),
        fullPage: true,
      })
      expect(await seriousViolations(page)).toEqual([])
      await page.close()
    },
  )
})
