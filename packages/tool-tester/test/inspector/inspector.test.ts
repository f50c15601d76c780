// `tool-tester dev` in a real browser: Debian's chromium, driven by playwright-core, on the page
// the built bin serves. The screenshots of the main views are saved too (see `images`).
import http from "node:http"
import path from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { packageRoot } from "../helpers.ts"
import type { RunningDev } from "./_inspector.ts"
import { launchChromium, makeProject, noChromium, seriousViolations, startDev, writeTool } from "./_inspector.ts"

// Each run saves the screenshots under .tmp/screenshots (ignored by git); with
// UPDATE_SCREENSHOTS=1 they replace the ones docs/inspector.md shows, in docs/images.
const images =
  process.env["UPDATE_SCREENSHOTS"] === "1"
    ? path.join(packageRoot, "..", "..", "docs", "images")
    : path.join(packageRoot, ".tmp", "screenshots")

const greet = (greeting: string) => `import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Greets someone, as often as asked",
  args: {
    name: tool.schema.string().describe("Who to greet"),
    times: tool.schema.number().int().min(1).optional().describe("How many times"),
    mood: tool.schema.enum(["happy", "grumpy"]).describe("The tone"),
    loud: tool.schema.boolean().optional(),
    tags: tool.schema.array(tool.schema.string()).optional(),
    place: tool.schema.object({ city: tool.schema.string(), zip: tool.schema.string().optional() }).optional(),
  },
  async execute(args, context) {
    context.metadata({ title: "greeting " + args.name })
    // A latent bug for the escaped-error test: a promise left to reject.
    if (args.tags?.includes("leak")) Promise.reject(new Error("greet leaked a rejection"))
    const line = "${greeting} " + args.name + (args.mood === "grumpy" ? "." : "!")
    return Array.from({ length: args.times ?? 1 }, () => (args.loud ? line.toUpperCase() : line)).join("\\n")
  },
})
`

const settings = `import { tool } from "@opencode-ai/plugin"

export const settings = tool({
  description: "Takes an empty options object, which Gemini rejects",
  args: { name: tool.schema.string().describe("Whose settings"), options: tool.schema.object({}) },
  async execute() {
    return "ok"
  },
})
`

const big = `import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Returns more lines than opencode passes on",
  args: {},
  async execute() {
    return Array.from({ length: 3000 }, (_, index) => "line " + (index + 1)).join("\\n")
  },
})
`

/** The call form on show: each tool keeps its own, hidden when another tool is selected. */
const form = () => page.locator('[data-testid="call-form"]:visible')
let page: Page

const skipped = noChromium === undefined ? "" : ` (skipped: ${noChromium})`
describe.skipIf(noChromium !== undefined)(`tool-tester dev in chromium${skipped}`, { timeout: 120_000 }, () => {
  let project: ReturnType<typeof makeProject>
  let dev: RunningDev
  let browser: Browser

  beforeAll(async () => {
    project = makeProject({
      ".opencode/tools/big.ts": big,
      ".opencode/tools/greet.ts": greet("Hello"),
      ".opencode/tools/settings.ts": settings,
    })
    dev = await startDev(project.directory)
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await page.goto(dev.url)
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await dev?.stop()
    project?.remove()
  }, 60_000)

  test("the page lists the project's tools with their findings inline", async () => {
    await page.locator('[data-testid="connection"]', { hasText: "live" }).waitFor({ timeout: 30_000 })
    await page.locator('[data-tool="greet"]').waitFor({ timeout: 30_000 })
    expect(
      await page.locator("[data-tool]").evaluateAll((items) => items.map((item) => item.getAttribute("data-tool"))),
    ).toEqual(["big", "greet", "settings_settings"])
    // The three columns reach the bottom of the window (the banners' row is empty).
    expect(await columnBottoms()).toEqual([900, 900, 900])
    // The lint's finding shows with the tools; doctor's (which covers every provider) replaces it
    // when it arrives from its own engine.
    const rejected = page.locator('[data-problem="PROVIDER_REJECTS"]', { hasText: "gemini/empty-object" })
    await expect.poll(() => rejected.count(), { timeout: 60_000 }).toBe(1)
    expect(await page.locator('[data-testid="engine"]').textContent()).toMatch(/^engine (bun|node) /)
  })

  test("a filled form runs the call and shows what the model reads", async () => {
    await page.locator('[data-tool="greet"]').click()
    await form().locator('[data-field="name"]').fill("Ada")
    await form().locator('[data-include="times"]').check()
    await form().locator('[data-field="times"]').fill("2")
    await form().locator('[data-field="mood"]').selectOption({ label: '"grumpy"' })
    await form().locator('[data-include="place"]').check()
    await form().locator('[data-field="place.city"]').fill("Paris")
    await form().locator('[data-testid="run"]').click()
    const view = page.locator('[data-testid="model-view"]')
    await expect.poll(() => view.textContent(), { timeout: 30_000 }).toBe("Hello Ada.\nHello Ada.")
    expect(await page.locator('[data-testid="status"]').textContent()).toBe("completed")
    // ctx.metadata({ title }) is recorded; opencode's part title for a custom tool stays empty.
    const records = await page.locator("details", { hasText: "ctx.metadata records" }).locator("pre").textContent()
    expect(records).toContain("greeting Ada")
    const received = await page
      .locator("details", { hasText: "Arguments the tool received" })
      .locator("pre")
      .textContent()
    expect(JSON.parse(received!)).toEqual({ name: "Ada", times: 2, mood: "grumpy", place: { city: "Paris" } })
    expect(await page.locator('[data-history="1"] [data-status]').textContent()).toBe("completed")
    await page.screenshot({ path: path.join(images, "inspector-call.png") })
    expect(await seriousViolations(page)).toEqual([])
    // The page follows the system's dark mode: its colours must hold there too.
    await page.emulateMedia({ colorScheme: "dark" })
    await page.screenshot({ path: path.join(packageRoot, ".tmp", "screenshots", "inspector-call-dark.png") })
    expect(await seriousViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: "light" })
  })

  /** Clicks the label of the shown form's field `name`; whether that field then has the focus. */
  async function labelFocusesItsField(name: string): Promise<boolean> {
    await form()
      .locator(".field label", { has: page.locator(".name", { hasText: new RegExp(`^${name}$`) }) })
      .click()
    return form()
      .locator(`[data-field="${name}"]`)
      .evaluate((field) => field === field.ownerDocument.activeElement)
  }

  test("every element id is unique, so a label focuses its own tool's field", async () => {
    // greet and settings_settings both have a `name` field, and every tool's form is in the page.
    const ids = await page.locator("[id]").evaluateAll((items) => items.map((item) => item.id))
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([])
    await page.locator('[data-tool="settings_settings"]').click()
    expect(await labelFocusesItsField("name")).toBe(true)
    await page.locator('[data-tool="greet"]').click()
    expect(await labelFocusesItsField("name")).toBe(true)
    expect(await form().locator('[data-field="name"]').inputValue()).toBe("Ada")
  })

  test("the schemas tab shows each provider's schema side by side, differences highlighted", async () => {
    await page.locator('[data-tab="schemas"]').click()
    const columns = page.locator("[data-provider]")
    expect(await columns.evaluateAll((items) => items.map((item) => item.getAttribute("data-provider")))).toEqual([
      "openai-compatible",
      "openai",
      "anthropic",
      "google",
      "moonshot",
    ])
    // Differences are against the first column, the schema as the tool defines it (opencode
    // changes nothing for @ai-sdk/openai-compatible). OpenAI gets strict: false on every tool: a
    // line the tool does not define, highlighted in OpenAI's column only.
    expect(await page.locator('[data-provider="openai"] .line.differs', { hasText: '"strict": false' }).count()).toBe(1)
    expect(await page.locator('[data-provider="openai-compatible"] .line', { hasText: '"strict"' }).count()).toBe(0)
    // OpenAI's sanitiser drops $schema: struck through in its column, and nowhere a difference in
    // the four columns that receive it as the tool defines it.
    expect(await page.locator('[data-provider="openai"] .line.removed', { hasText: '"$schema"' }).count()).toBe(1)
    expect(await page.locator(".line.differs", { hasText: '"$schema"' }).count()).toBe(0)
    expect(await page.locator(".line:not(.removed)", { hasText: '"$schema"' }).count()).toBe(4)
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 900 })
      expect(await columnBottoms()).toEqual([900, 900])
      expect(await schemaLayoutProblems()).toEqual([])
      await page.screenshot({
        path: path.join(images, width === 1440 ? "inspector-schemas.png" : `inspector-schemas-${width}.png`),
      })
      expect(await seriousViolations(page)).toEqual([])
    }
    await page.emulateMedia({ colorScheme: "dark" })
    expect(await seriousViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: "light" })
    await page.setViewportSize({ width: 1024, height: 900 })
    await page.locator('[data-tab="call"]').click()
    await page.screenshot({ path: path.join(images, "inspector-call-1024.png") })
    expect(await columnBottoms()).toEqual([900, 900, 900])
    await page.setViewportSize({ width: 1440, height: 900 })
  })

  test("a save on disk reloads the project and re-runs the last call, without touching the page", async () => {
    writeTool(project.directory, ".opencode/tools/greet.ts", greet("Goodbye"))
    const view = page.locator('[data-testid="model-view"]')
    await expect.poll(() => view.textContent(), { timeout: 60_000 }).toBe("Goodbye Ada.\nGoodbye Ada.")
    expect(await page.locator('[data-testid="timing"]').textContent()).toContain("(reload)")
    expect(await page.locator("[data-history]").count()).toBe(2)
    // What was typed is still there: the page was not reloaded.
    expect(await form().locator('[data-field="name"]').inputValue()).toBe("Ada")
    await page.screenshot({ path: path.join(images, "inspector-reload.png") })
  })

  test("raw text goes through opencode's repair, and an earlier call can be replayed", async () => {
    await form().locator('[data-mode="raw"]').click()
    await form().locator('[data-testid="raw-editor"]').fill('{"name": "Ada", "mood": "happy"')
    await form().locator('[data-testid="run"]').click()
    await expect
      .poll(() => page.locator('[data-testid="result"]').getAttribute("data-call"), { timeout: 30_000 })
      .toBe("3")
    // The page shows its own call from its start (running): its end is what is checked.
    await expect.poll(() => page.locator('[data-testid="status"]').textContent(), { timeout: 30_000 }).toBe("rerouted")
    expect(await page.locator(".badge", { hasText: "rerouted to invalid" }).count()).toBe(1)
    expect(await page.locator('[data-testid="model-view"]').textContent()).toContain("invalid")
    // greet never ran: the call is not shown as a (green) completed one, here or in the history.
    expect(await page.locator('[data-testid="status"]').textContent()).toBe("rerouted")
    expect(await page.locator('[data-testid="status"]').getAttribute("class")).toBe("status bad")
    expect(await page.locator('[data-history="3"] [data-status]').textContent()).toBe("rerouted")
    expect(await page.locator('[data-history="3"] .status').getAttribute("class")).toBe("status bad")
    await page.locator('[data-replay="1"]').click()
    await expect
      .poll(() => page.locator('[data-testid="result"]').getAttribute("data-call"), { timeout: 30_000 })
      .toBe("4")
    await expect
      .poll(() => page.locator('[data-testid="model-view"]').textContent(), { timeout: 30_000 })
      .toBe("Goodbye Ada.\nGoodbye Ada.")
  })

  test("a truncated result says so and links to the full output the truncation saved", async () => {
    await page.locator('[data-tool="big"]').click()
    await form().locator('[data-testid="run"]').click()
    await page.locator('[data-testid="truncated"]').waitFor({ timeout: 30_000 })
    const view = await page.locator('[data-testid="model-view"]').textContent()
    expect(view).toContain("line 1\n")
    expect(view).not.toContain("line 3000")
    const href = await page.locator('[data-testid="truncated"] a').getAttribute("href")
    const saved = await page.evaluate((url) => fetch(url).then((response) => response.text()), href!)
    expect(saved.split("\n")).toHaveLength(3000)
    expect(saved.endsWith("line 3000")).toBe(true)
  })

  test("clicking a history entry shows its call's tool and arguments again", async () => {
    // big is selected now; call #1 was greet's form, call #3 greet's raw text.
    await page.locator('[data-history="1"] button.link').click()
    expect(await page.locator('[data-testid="tool-name"]').textContent()).toBe("greet")
    expect(await page.locator('[data-testid="result"]').getAttribute("data-call")).toBe("1")
    expect(await form().locator('[data-field="name"]').inputValue()).toBe("Ada")
    expect(await form().locator('[data-field="times"]').inputValue()).toBe("2")
    expect(await form().locator('[data-field="place.city"]').inputValue()).toBe("Paris")
    expect(await form().locator('[data-field="mood"] option:checked').textContent()).toBe('"grumpy"')
    await page.locator('[data-tool="big"]').click()
    await page.locator('[data-history="3"] button.link').click()
    expect(await page.locator('[data-testid="tool-name"]').textContent()).toBe("greet")
    expect(await form().locator('[data-testid="raw-editor"]').inputValue()).toBe('{"name": "Ada", "mood": "happy"')
    await form().locator('[data-mode="form"]').click()
  })

  test("a save that breaks a file shows that opencode offers no tools, and the fix brings back what was typed", async () => {
    await form().locator('[data-field="name"]').fill("Grace")
    await form().locator('[data-testid="run"]').click()
    const view = page.locator('[data-testid="model-view"]')
    await expect.poll(() => view.textContent(), { timeout: 30_000 }).toBe("Goodbye Grace.\nGoodbye Grace.")
    const calls = await page.locator("[data-history]").count()
    // Typed, not run: it must survive the broken save.
    await form().locator('[data-field="name"]').fill("Hopper")
    writeTool(project.directory, ".opencode/tools/greet.ts", greet("Broken").replace("async execute", "async execute("))
    await page.locator('[data-testid="no-tools"]').waitFor({ timeout: 60_000 })
    expect(await page.locator('[data-testid="no-tools"]').textContent()).toContain(".opencode/tools/greet.ts")
    // opencode's whole tool list fails: no tool is listed, big and settings included.
    expect(await page.locator("[data-tool]").count()).toBe(0)
    // The re-run of the last call did not run anything, and says why.
    await expect.poll(() => page.locator("[data-history]").count(), { timeout: 60_000 }).toBe(calls + 1)
    // A call is listed from its start (running): its end is what is checked.
    await expect
      .poll(() => page.locator('[data-testid="status"]').textContent(), { timeout: 30_000 })
      .toBe("IMPORT_FAILED")
    expect(await page.locator(`[data-history="${calls + 1}"] [data-status]`).textContent()).toBe("IMPORT_FAILED")
    expect(await page.locator('[data-testid="result-error"]').textContent()).toContain("opencode offers no tools")
    await page.screenshot({ path: path.join(images, "inspector-import-failed.png") })
    expect(await seriousViolations(page)).toEqual([])
    writeTool(project.directory, ".opencode/tools/greet.ts", greet("Goodbye"))
    await expect.poll(() => view.textContent(), { timeout: 60_000 }).toBe("Goodbye Grace.\nGoodbye Grace.")
    // The re-run's result and the new tool list reach the page apart: the list may come second.
    await expect.poll(() => page.locator('[data-testid="no-tools"]').count(), { timeout: 60_000 }).toBe(0)
    expect(await page.locator("[data-tool]").count()).toBe(3)
    expect(await page.locator('[data-testid="tool-name"]').textContent()).toBe("greet")
    expect(await form().locator('[data-field="name"]').inputValue()).toBe("Hopper")
    expect(await form().locator('[data-field="place.city"]').inputValue()).toBe("Paris")
  })

  test("a call an error escaped shows it, in the result and in the history, not as a clean success", async () => {
    await form().locator('[data-mode="raw"]').click()
    await form().locator('[data-testid="raw-editor"]').fill('{"name": "Ada", "mood": "happy", "tags": ["leak"]}')
    const calls = await page.locator("[data-history]").count()
    await form().locator('[data-testid="run"]').click()
    await expect.poll(() => page.locator("[data-history]").count(), { timeout: 30_000 }).toBe(calls + 1)
    // opencode keeps what execute returned: the call completed, with a warning (listed from its start, running).
    await expect
      .poll(() => page.locator('[data-testid="status"]').textContent(), { timeout: 30_000 })
      .toBe("completed, 1 escaped error")
    expect(await page.locator('[data-testid="model-view"]').textContent()).toBe("Goodbye Ada!")
    expect(await page.locator('[data-testid="status"]').getAttribute("class")).toBe("status warn")
    const row = page.locator(`[data-history="${calls + 1}"] .status`)
    expect(await row.textContent()).toBe("completed, 1 escaped error")
    expect(await row.getAttribute("class")).toBe("status warn")
    const escaped = await page.locator('[data-testid="escaped"] li').allTextContents()
    expect(escaped).toHaveLength(1)
    expect(escaped[0]).toContain("greet leaked a rejection")
    expect(escaped[0]).toContain("await it or add a .catch")
    await page.screenshot({ path: path.join(packageRoot, ".tmp", "screenshots", "inspector-escaped.png") })
    expect(await seriousViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: "dark" })
    expect(await seriousViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: "light" })
    await form().locator('[data-mode="form"]').click()
  })

  test("requests without the token, from another origin or for another host are refused", async () => {
    const base = `http://127.0.0.1:${dev.port}`
    expect((await request(`${base}/${dev.token}/api/project`)).status).toBe(200)
    expect((await request(`${base}/api/project`)).status).toBe(403)
    expect((await request(`${base}/not-the-token/`)).status).toBe(403)
    expect((await request(`${base}/${dev.token}/api/project`, { Origin: "http://evil.example" })).status).toBe(403)
    // DNS rebinding: another name that resolves to 127.0.0.1 still sends its own Host.
    expect((await request(`${base}/${dev.token}/api/project`, { Host: `evil.example:${dev.port}` })).status).toBe(403)
    const call = await request(
      `${base}/${dev.token}/api/call`,
      { Origin: "http://evil.example" },
      "POST",
      '{"name":"greet","form":"args","args":{}}',
    )
    expect(call.status).toBe(403)
    // From another site's page in the browser, the call is refused too (and nothing ran).
    const calls = await page.locator("[data-history]").count()
    const other = await browser.newPage()
    await other.goto("about:blank")
    const status = await other.evaluate(
      (url) =>
        fetch(url, { method: "POST", body: '{"name":"greet","form":"args","args":{"name":"x","mood":"happy"}}' }).then(
          (response) => response.status,
          () => 0,
        ),
      `${base}/${dev.token}/api/call`,
    )
    expect([0, 403]).toContain(status)
    await other.close()
    expect(await page.locator("[data-history]").count()).toBe(calls)
    // Only the page's own files are served.
    expect((await request(`${base}/${dev.token}/../../package.json`)).status).not.toBe(200)
    expect((await request(`${base}/${dev.token}/assets/nothing.js`)).status).toBe(404)
  })
})

/** How far down the window the three columns (two on the schemas tab) reach, in px. */
function columnBottoms(): Promise<number[]> {
  return page
    .locator(".layout > aside, .layout > main, .layout > .side:visible")
    .evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().bottom)))
}

/**
 * What the schema columns hide or break: a column whose content is wider than the column (lines
 * cut off), a word that wraps onto two lines although it fits on one, a model name on two lines.
 */
function schemaLayoutProblems(): Promise<string[]> {
  return page.locator("[data-provider]").evaluateAll((columns) => {
    const problems: string[] = []
    for (const column of columns) {
      const provider = column.getAttribute("data-provider")
      for (const element of column.querySelectorAll("pre, .hint"))
        if (element.scrollWidth > element.clientWidth + 1) problems.push(`${provider}: content wider than the column`)
      const model = column.querySelector(".model")!
      if (
        model.getClientRects().length !== 1 ||
        model.getBoundingClientRect().right > column.getBoundingClientRect().right + 1
      )
        problems.push(`${provider}: the model name ${model.textContent} is broken or cut`)
      // 4: NodeFilter.SHOW_TEXT (the test's own types have no DOM globals).
      const walker = column.ownerDocument.createTreeWalker(column.querySelector("pre") ?? column, 4)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? ""
        for (const match of text.matchAll(/\S+/g)) {
          const range = column.ownerDocument.createRange()
          range.setStart(node, match.index)
          range.setEnd(node, match.index + match[0].length)
          const rects = [...range.getClientRects()]
          const lines = new Set(rects.map((rect) => Math.round(rect.top)))
          // It would fit on a line of its own (a continued line starts 2ch further in: 20 px is more).
          const fits = rects.reduce((sum, rect) => sum + rect.width, 0) + 20 < node.parentElement!.clientWidth
          if (lines.size > 1 && fits) problems.push(`${provider}: "${match[0]}" is broken across lines`)
        }
      }
    }
    return problems
  })
}

function request(
  url: string,
  headers: Record<string, string> = {},
  method = "GET",
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      url,
      { method, headers: { "Content-Type": "application/json", ...headers } },
      (response) => {
        let text = ""
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk))
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }))
      },
    )
    outgoing.on("error", reject)
    outgoing.end(body)
  })
}
