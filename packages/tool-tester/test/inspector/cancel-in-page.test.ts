// A running call in the page: it is listed from its start, in every open page, with a cancel
// button; a cancel from any page stops it, every page shows it cancelled, and the history stays in
// the order calls started in (their numbers), whenever they end.
import type { Page } from "playwright-core"
import { describe, expect, test } from "vitest"
import { historyStatus, noChromium, openedLive, useInspectorSession } from "./_inspector.ts"

const waits = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Waits for its abort signal",
  args: {},
  async execute(_args, context) {
    if (!context.abort.aborted)
      await new Promise((resolve) => context.abort.addEventListener("abort", resolve, { once: true }))
    return "stopped on abort"
  },
})
`
const spin = `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Spins", args: {}, async execute() { for (;;) {} } })
`
const hi = `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Says hi", args: {}, async execute() { return "hi" } })
`

/** The history's call numbers, top to bottom. */
const listed = (page: Page) =>
  page.locator("[data-history]").evaluateAll((items) => items.map((item) => item.getAttribute("data-history")))

async function run(page: Page, tool: string): Promise<void> {
  await page.locator(`[data-tool="${tool}"]`).click()
  await page.locator('[data-testid="call-form"]:visible [data-testid="run"]').click()
}

const skipped = noChromium === undefined ? "" : ` (skipped: ${noChromium})`
describe.skipIf(noChromium !== undefined)(`cancelling a running call${skipped}`, { timeout: 240_000 }, () => {
  const session = useInspectorSession({
    ".opencode/tools/waits.ts": waits,
    ".opencode/tools/spin.ts": spin,
    ".opencode/tools/hi.ts": hi,
  })

  test("a running call is listed in every page from its start, and a cancel in another page stops it", async () => {
    const a = await session.browser.newPage({ viewport: { width: 1440, height: 900 } })
    const b = await session.browser.newPage({ viewport: { width: 1440, height: 900 } })
    await openedLive(a, session.dev.url)
    await openedLive(b, session.dev.url)

    await run(a, "waits")
    // The other page lists it as running, with its cancel button, before it ends (its result is
    // a's to show: b shows it when asked, under its tool).
    await expect.poll(() => historyStatus(b, 1), { timeout: 60_000 }).toBe("running")
    expect(await b.locator('[data-cancel="1"]').isEnabled()).toBe(true)
    await a.locator('[data-testid="result"][data-call="1"] [data-testid="cancel"]').waitFor({ timeout: 60_000 })
    expect(await b.locator('[data-testid="result"]').count()).toBe(0)

    // A later call that ends first is listed above it: newest start first, whatever ends first.
    await run(a, "hi")
    await expect.poll(() => historyStatus(a, 2), { timeout: 60_000 }).toBe("completed")
    expect(await listed(a)).toEqual(["2", "1"])
    expect(await historyStatus(a, 1)).toBe("running")

    await b.locator('[data-cancel="1"]').click()
    for (const page of [a, b]) await expect.poll(() => historyStatus(page, 1), { timeout: 60_000 }).toBe("INTERRUPTED")
    expect(await listed(a)).toEqual(["2", "1"])
    expect(await listed(b)).toEqual(["2", "1"])
    await b.locator('[data-history="1"] button.link').click()
    expect(
      await b.locator('[data-testid="result"][data-call="1"] [data-testid="result-error"]').textContent(),
    ).toContain("cancelled from the inspector")
    await a.close()
    await b.close()
  })

  test("the result's Cancel button stops a busy loop, and the next call runs", async () => {
    const page = await session.browser.newPage({ viewport: { width: 1440, height: 900 } })
    await openedLive(page, session.dev.url)
    await run(page, "spin")
    // The call's id from its result, not from counting the history: the page may not have listed
    // the calls of the test before when it opened (a loaded CI run counted none, and waited for
    // call 1, which was not this one).
    const running = page.locator('[data-testid="result"]').filter({ has: page.locator('[data-testid="cancel"]') })
    await running.waitFor({ timeout: 60_000 })
    const id = Number(await running.getAttribute("data-call"))
    expect(id).toBeGreaterThan(0)
    await running.locator('[data-testid="cancel"]').click({ timeout: 60_000 })
    await expect.poll(() => historyStatus(page, id), { timeout: 60_000 }).toBe("INTERRUPTED")
    expect(await page.locator('[data-testid="result-error"]').textContent()).toContain("the engine it ran in was ended")
    await run(page, "hi")
    await expect.poll(() => historyStatus(page, id + 1), { timeout: 60_000 }).toBe("completed")
    await expect.poll(() => page.locator('[data-testid="model-view"]').textContent(), { timeout: 30_000 }).toBe("hi")
    await page.close()
  })
})
