// Two pages open on one `dev`: as in the MCP Inspector, whose tabs are clients of their own, a page
// shows the results of the calls it made, beside the tool it called; another page's calls join its
// history only, and a click there shows one under its own tool. A save re-runs the last call of
// each open page, and each re-run takes the place of that call in the pages that show it.
import type { Page } from "playwright-core"
import { describe, expect, test } from "vitest"
import { historyStatus, noChromium, openedLive, useInspectorSession, writeTool } from "./_inspector.ts"

const echo = (prefix: string) => `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Echoes its text",
  args: { text: tool.schema.string() },
  async execute(args) { return ${JSON.stringify(prefix)} + args.text },
})
`
const hi = `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Says hi", args: {}, async execute() { return "hi" } })
`

const form = (page: Page) => page.locator('[data-testid="call-form"]:visible')
const shownCall = (page: Page) => page.locator('[data-testid="result"]').getAttribute("data-call", { timeout: 1_000 })

const skipped = noChromium === undefined ? "" : ` (skipped: ${noChromium})`
describe.skipIf(noChromium !== undefined)(`two pages on one dev${skipped}`, { timeout: 240_000 }, () => {
  const session = useInspectorSession({ ".opencode/tools/echo.ts": echo("said "), ".opencode/tools/hi.ts": hi })

  test("each page shows its own calls' results beside their tool, and lists the other's", async () => {
    const a = await session.browser.newPage({ viewport: { width: 1440, height: 900 } })
    const b = await session.browser.newPage({ viewport: { width: 1440, height: 900 } })
    await openedLive(a, session.dev.url)
    await openedLive(b, session.dev.url)
    await b.locator('[data-tool="hi"]').click()

    await a.locator('[data-tool="echo"]').click()
    await form(a).locator('[data-field="text"]').fill("from a")
    await form(a).locator('[data-testid="run"]').click()
    await expect
      .poll(() => a.locator('[data-testid="model-view"]').textContent(), { timeout: 60_000 })
      .toBe("said from a")
    expect(await shownCall(a)).toBe("1")
    // b lists a's call, and goes on showing hi, with no result beside it.
    await expect.poll(() => historyStatus(b, 1), { timeout: 60_000 }).toBe("completed")
    expect(await b.locator('[data-testid="tool-name"]').textContent()).toBe("hi")
    expect(await b.locator('[data-testid="result"]').count()).toBe(0)

    // A save re-runs a's call: a shows the re-run in its place; b lists it, and shows nothing.
    writeTool(session.project.directory, ".opencode/tools/echo.ts", echo("now "))
    await expect
      .poll(() => a.locator('[data-testid="model-view"]').textContent(), { timeout: 60_000 })
      .toBe("now from a")
    expect(await shownCall(a)).toBe("2")
    await expect.poll(() => historyStatus(b, 2), { timeout: 60_000 }).toBe("completed")
    expect(await b.locator('[data-testid="result"]').count()).toBe(0)

    // b's call is b's: a lists it, and still shows its own beside echo.
    await form(b).locator('[data-testid="run"]').click()
    await expect.poll(() => b.locator('[data-testid="model-view"]').textContent(), { timeout: 60_000 }).toBe("hi")
    expect(await shownCall(b)).toBe("3")
    await expect.poll(() => historyStatus(a, 3), { timeout: 60_000 }).toBe("completed")
    expect(await shownCall(a)).toBe("2")
    // A result is shown beside the tool that was called, not beside another one.
    await a.locator('[data-tool="hi"]').click()
    expect(await a.locator('[data-testid="result"]').count()).toBe(0)
    await a.locator('[data-tool="echo"]').click()
    expect(await shownCall(a)).toBe("2")

    // A click in b shows a's call there, under its own tool, with the arguments that made it.
    await b.locator('[data-history="2"] button.link').click()
    expect(await b.locator('[data-testid="tool-name"]').textContent()).toBe("echo")
    expect(await shownCall(b)).toBe("2")
    expect(await form(b).locator('[data-field="text"]').inputValue()).toBe("from a")

    // Each open page's last call runs again on a save: a's echo (shown in both pages now) and b's hi.
    writeTool(session.project.directory, ".opencode/tools/echo.ts", echo("again "))
    for (const page of [a, b])
      await expect
        .poll(() => page.locator('[data-testid="model-view"]').textContent(), { timeout: 60_000 })
        .toBe("again from a")
    await b.locator('[data-tool="hi"]').click()
    await expect.poll(() => shownCall(b), { timeout: 60_000 }).not.toBe("3")
    const rerunOfHi = Number(await shownCall(b))
    await expect.poll(() => historyStatus(b, rerunOfHi), { timeout: 60_000 }).toBe("completed")
    expect(await b.locator('[data-testid="model-view"]').textContent()).toBe("hi")

    // A closed page's last call is not run again: with b gone, a save re-runs a's call alone.
    await b.close()
    const calls = async () => Number(await a.locator("[data-history]").first().getAttribute("data-history"))
    const before = await calls()
    writeTool(session.project.directory, ".opencode/tools/echo.ts", echo("alone "))
    await expect
      .poll(() => a.locator('[data-testid="model-view"]').textContent(), { timeout: 60_000 })
      .toBe("alone from a")
    expect(await calls()).toBe(before + 1)
    await a.close()
  })
})
