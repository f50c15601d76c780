// The inspector after a reload or in a new tab shows the last call with the arguments that made it
// (never its result beside an empty form), and a tool that throws shows where: the line of the tool
// file, and a title that says what happened (opencode stores none for a failed call). Screenshots
// of the error at the two common laptop widths are saved to look at.
import path from "node:path"
import type { Page } from "playwright-core"
import { describe, expect, test } from "vitest"
import { packageRoot } from "../helpers.ts"
import { noChromium, pageOnTool, seriousViolations, useInspectorSession } from "./_inspector.ts"

// JavaScript: its lines are the file's own under either engine (docs/fidelity.md).
const shout = `import { tool } from "@opencode-ai/plugin"

function loud(text) {
  if (text === "boom") throw new TypeError("cannot shout boom")
  return text.toUpperCase()
}

export default tool({
  description: "Shouts the text back",
  args: { text: tool.schema.string().describe("What to shout") },
  async execute(args) {
    return loud(args.text)
  },
})
`

const quiet = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Says nothing",
  args: { note: tool.schema.string().describe("Ignored") },
  async execute() { return "" },
})
`

const visibleForm = (page: Page) => page.locator('[data-testid="call-form"]:visible')

const skipped = noChromium === undefined ? "" : ` (skipped: ${noChromium})`
describe.skipIf(noChromium !== undefined)(`a fresh page and a thrown error${skipped}`, { timeout: 180_000 }, () => {
  const session = useInspectorSession({ ".opencode/tools/quiet.js": quiet, ".opencode/tools/shout.js": shout })

  test("a throw shows the tool file's line and a title that names the error", async () => {
    const page = await pageOnTool(session.browser, session.dev.url, "shout")
    await visibleForm(page).locator('[data-field="text"]').fill("boom")
    await visibleForm(page).locator('[data-testid="run"]').click()
    const status = page.locator('[data-testid="status"]')
    await expect.poll(() => status.textContent(), { timeout: 60_000 }).toBe("error")
    expect(await page.locator('[data-testid="title"]').textContent()).toBe("shout threw TypeError")
    expect(await page.locator('[data-testid="thrown-at"]').textContent()).toMatch(
      /^\.opencode\/tools\/shout\.js:4:\d+$/,
    )
    expect(await page.locator('[data-testid="stack"] pre').textContent()).toContain("cannot shout boom")
    await page.close()
  })

  test("a reload and a new tab show the last call with the arguments that made it", async () => {
    const page = await pageOnTool(session.browser, session.dev.url, "quiet")
    await visibleForm(page).locator('[data-field="note"]').fill("first")
    await visibleForm(page).locator('[data-testid="run"]').click()
    await page.locator('[data-testid="result"][data-call]').waitFor({ timeout: 60_000 })
    await page.locator('[data-tool="shout"]').click()
    await visibleForm(page).locator('[data-field="text"]').fill("boom")
    const calls = await page.locator("[data-history]").count()
    await visibleForm(page).locator('[data-testid="run"]').click()
    // The new call, once it ended: shout may still show an earlier call of its own until then.
    await expect.poll(() => page.locator("[data-history]").count(), { timeout: 60_000 }).toBe(calls + 1)
    const last = await page.locator("[data-history]").first().getAttribute("data-history")
    const shown = page.locator('[data-testid="result"]')
    await expect.poll(() => shown.getAttribute("data-call"), { timeout: 60_000 }).toBe(last)
    await expect.poll(() => page.locator('[data-testid="status"]').textContent(), { timeout: 60_000 }).toBe("error")

    for (const fresh of [() => page.reload(), () => page.goto(session.dev.url)]) {
      await fresh()
      await page.locator('[data-testid="connection"]', { hasText: "live" }).waitFor({ timeout: 30_000 })
      await page.locator('[data-testid="result"]').waitFor({ timeout: 30_000 })
      expect(await page.locator('[data-testid="result"]').getAttribute("data-call")).toBe(last)
      expect(await page.locator('[data-testid="tool-name"]').textContent()).toBe("shout")
      expect(await visibleForm(page).locator('[data-field="text"]').inputValue()).toBe("boom")
    }
    await page.close()
  })

  test.each([1024, 1440])("at %i px: the error result, screenshot saved, axe finds nothing serious", async (width) => {
    const page = await session.browser.newPage({ viewport: { width, height: 800 } })
    await page.goto(session.dev.url)
    await page.locator('[data-tool="shout"]').click()
    await visibleForm(page).locator('[data-field="text"]').fill("boom")
    await visibleForm(page).locator('[data-testid="run"]').click()
    await page.locator('[data-testid="thrown-at"]').waitFor({ timeout: 60_000 })
    await page.locator('[data-testid="stack"] summary').click()
    await page.screenshot({
      path: path.join(packageRoot, ".tmp", "screenshots", `inspector-error-${width}.png`),
      fullPage: true,
    })
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })
})
