// `tool-tester dev` in a real browser: Debian's chromium, driven by playwright-core, on the page
// the built bin serves. The screenshots of the main views are saved too (see `images`).
import http from "node:http"
import path from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { packageRoot } from "../helpers.ts"
import type { RunningDev } from "./_inspector.ts"
import { launchChromium, makeProject, noChromium, startDev, writeTool } from "./_inspector.ts"

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
    const line = "${greeting} " + args.name + (args.mood === "grumpy" ? "." : "!")
    return Array.from({ length: args.times ?? 1 }, () => (args.loud ? line.toUpperCase() : line)).join("\\n")
  },
})
`

const settings = `import { tool } from "@opencode-ai/plugin"

export const settings = tool({
  description: "Takes an empty options object, which Gemini rejects",
  args: { options: tool.schema.object({}) },
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
    await page.screenshot({ path: path.join(images, "inspector-call.png") })
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
    // OpenAI gets strict: false on every tool: a line the others do not receive.
    expect(await page.locator('[data-provider="openai"] .line.differs', { hasText: '"strict": false' }).count()).toBe(1)
    expect(await page.locator('[data-provider="openai-compatible"] .line', { hasText: '"strict"' }).count()).toBe(0)
    await page.screenshot({ path: path.join(images, "inspector-schemas.png") })
    await page.locator('[data-tab="call"]').click()
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
    expect(await page.locator(".badge", { hasText: "rerouted to invalid" }).count()).toBe(1)
    expect(await page.locator('[data-testid="model-view"]').textContent()).toContain("invalid")
    await page.locator('[data-replay="1"]').click()
    await expect
      .poll(() => page.locator('[data-testid="result"]').getAttribute("data-call"), { timeout: 30_000 })
      .toBe("4")
    expect(await page.locator('[data-testid="model-view"]').textContent()).toBe("Goodbye Ada.\nGoodbye Ada.")
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
