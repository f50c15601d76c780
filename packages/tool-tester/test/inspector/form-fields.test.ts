// The call form sends what it shows, and shows what a tool is: a field edited as JSON (a union,
// any) whose text does not parse stops the call instead of sending the last value that did, and a
// history entry put back shows its own value there; so does a number field left empty, rather than
// leave its key out; the JSON and raw text editors, switched to, hold what the form shows; a field
// that accepts null can send it, and its call can be copied as JSON; a record's label names its
// keys and values, an optional field's its default; a long description is folded, so the form stays in sight.
import type { Page } from "playwright-core"
import { describe, expect, test } from "vitest"
import { noChromium, pageOnTool, useInspectorSession } from "./_inspector.ts"

const pick = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Echoes a string or a number",
  args: {
    either: tool.schema.union([tool.schema.string(), tool.schema.number()]),
    note: tool.schema.string().nullable().optional(),
  },
  async execute(args) { return JSON.stringify(args) },
})
`

const wordy = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: ${JSON.stringify("Says a lot. ".repeat(500))},
  args: { text: tool.schema.string() },
  async execute(args) { return args.text },
})
`

const count = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Counts up",
  args: { n: tool.schema.number().int() },
  async execute(args) { return JSON.stringify(args) },
})
`

const shapes = `import { tool } from "@opencode-ai/plugin"
const z = tool.schema
export default tool({
  description: "Records and defaults",
  args: {
    scores: z.record(z.string(), z.number()),
    picks: z.record(z.enum(["a", "b"]), z.boolean()),
    limit: z.number().default(5),
  },
  async execute(args) { return JSON.stringify(args) },
})
`

const visibleForm = (page: Page) => page.locator('[data-testid="call-form"]:visible')

const skipped = noChromium === undefined ? "" : ` (skipped: ${noChromium})`
describe.skipIf(noChromium !== undefined)(`the call form${skipped}`, { timeout: 180_000 }, () => {
  const session = useInspectorSession({
    ".opencode/tools/count.ts": count,
    ".opencode/tools/pick.ts": pick,
    ".opencode/tools/shapes.ts": shapes,
    ".opencode/tools/wordy.ts": wordy,
  })

  test("text that is not JSON stops the call; a history entry puts its own value back in the field", async () => {
    const page = await pageOnTool(session.browser, session.dev.url, "pick")
    const field = visibleForm(page).locator('[data-field="either"]')
    const modelView = page.locator('[data-testid="model-view"]')
    await field.fill('"one"')
    await visibleForm(page).locator('[data-testid="run"]').click()
    await expect.poll(() => modelView.textContent(), { timeout: 60_000 }).toBe('{"either":"one"}')
    const first = await page.locator('[data-testid="result"]').getAttribute("data-call")

    // Not JSON: no call is made, and the form says why.
    await field.fill("one two")
    await visibleForm(page).locator('[data-testid="run"]').click()
    await page.waitForTimeout(1500)
    expect(await page.locator("[data-history]").count()).toBe(1)
    const problem = visibleForm(page).locator('[data-testid="form-problem"]')
    expect(await problem.textContent()).toContain("either is not JSON")
    expect(await field.getAttribute("aria-invalid")).toBe("true")

    // The first call put back: its value is what the field shows, and what a run sends.
    await field.fill("2")
    await page.locator(`[data-history="${first}"] button.link`).click()
    await expect.poll(() => field.inputValue()).toBe('"one"')
    await visibleForm(page).locator('[data-testid="run"]').click()
    await expect.poll(() => page.locator("[data-history]").count(), { timeout: 60_000 }).toBe(2)
    // Listed from its start (running): the page shows its result once it ended.
    await expect
      .poll(() => page.locator('[data-testid="result"]').getAttribute("data-call"), { timeout: 60_000 })
      .toBe("2")
    await expect.poll(() => modelView.textContent(), { timeout: 60_000 }).toBe('{"either":"one"}')
    await page.close()
  })

  test("switched to from the form, the JSON and raw text editors hold a field's text that is not JSON as typed", async () => {
    const page = await pageOnTool(session.browser, session.dev.url, "pick")
    const field = visibleForm(page).locator('[data-field="either"]')
    await field.fill('"one"')
    await field.fill("one two")
    expect(await field.getAttribute("aria-invalid")).toBe("true")
    const before = await page.locator("[data-history]").count()
    // Not its last value that parsed ("one"): what the field shows.
    await visibleForm(page).locator('button[data-mode="raw"]').click()
    expect(await visibleForm(page).locator('[data-testid="raw-editor"]').inputValue()).toBe('{"either":one two}')
    await visibleForm(page).locator('button[data-mode="form"]').click()
    await field.fill("one two")
    await visibleForm(page).locator('button[data-mode="json"]').click()
    const json = visibleForm(page).locator('[data-testid="json-editor"]')
    expect(await json.inputValue()).toBe('{\n  "either": one two\n}')
    // Which the JSON editor does not send.
    await visibleForm(page).locator('[data-testid="run"]').click()
    expect(await visibleForm(page).locator('[data-testid="form-problem"]').textContent()).toContain("not JSON")
    expect(await page.locator("[data-history]").count()).toBe(before)
    await page.close()
  })

  test("JSON text that does not parse is held: the form says so, and switching back shows the text as typed", async () => {
    const page = await pageOnTool(session.browser, session.dev.url, "pick")
    await visibleForm(page).locator('[data-field="either"]').fill('"kept"')
    await visibleForm(page).locator('button[data-mode="json"]').click()
    const json = visibleForm(page).locator('[data-testid="json-editor"]')
    await json.fill('{"either": "half')
    await visibleForm(page).locator('button[data-mode="form"]').click()
    // The form keeps the arguments from before, and says why.
    expect(await visibleForm(page).locator('[data-testid="held-json"]').textContent()).toContain("does not parse")
    expect(await visibleForm(page).locator('[data-field="either"]').inputValue()).toBe('"kept"')
    await visibleForm(page).locator('button[data-mode="json"]').click()
    expect(await json.inputValue()).toBe('{"either": "half')
    // Once the form changes, its arguments are what the JSON editor shows.
    await visibleForm(page).locator('button[data-mode="form"]').click()
    await visibleForm(page).locator('[data-field="either"]').fill('"changed"')
    expect(await visibleForm(page).locator('[data-testid="held-json"]').count()).toBe(0)
    await visibleForm(page).locator('button[data-mode="json"]').click()
    expect(JSON.parse(await json.inputValue())).toEqual({ either: "changed" })
    await page.close()
  })

  test("a record's label names its keys and values, and an optional field's its default", async () => {
    const page = await pageOnTool(session.browser, session.dev.url, "shapes")
    const typeOf = (name: string) =>
      visibleForm(page)
        .locator(".field", { has: page.locator(`.name:text-is("${name}")`) })
        .locator(".type")
        .first()
    expect(await typeOf("scores").textContent()).toBe("record<string, number>")
    expect(await typeOf("picks").textContent()).toBe('record<"a" | "b", boolean>')
    expect(await typeOf("limit").textContent()).toBe("number (optional, default 5)")
    await page.close()
  })

  test("a field that accepts null sends null when its null box is ticked, and the call copies as JSON", async () => {
    const page = await pageOnTool(session.browser, session.dev.url, "pick")
    await visibleForm(page).locator('[data-field="either"]').fill("3")
    await visibleForm(page).locator('[data-include="note"]').check()
    await visibleForm(page).locator('[data-null="note"]').check()
    expect(await visibleForm(page).locator('[data-field="note"]').count()).toBe(0)
    await visibleForm(page).locator('[data-testid="run"]').click()
    const modelView = page.locator('[data-testid="model-view"]')
    await expect.poll(() => modelView.textContent(), { timeout: 60_000 }).toBe('{"either":3,"note":null}')

    // The call, copied as JSON: the arguments as sent, then the result.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"])
    await page.locator('[data-testid="result"] [data-testid="copy"]').click()
    await expect.poll(() => page.locator('[data-testid="copy"]').textContent()).toContain("copied")
    const copied = JSON.parse(await page.evaluate<string>("navigator.clipboard.readText()")) as Record<string, unknown>
    expect(copied).toMatchObject({
      tool: "pick",
      args: { either: 3, note: null },
      result: { status: "completed", output: '{"either":3,"note":null}', metadata: { truncated: false } },
    })
    await page.close()
  })

  test("a long description is folded: the form and its Run button stay in the window", async () => {
    const page = await pageOnTool(session.browser, session.dev.url, "wordy")
    const run = visibleForm(page).locator('[data-testid="run"]')
    expect((await run.boundingBox())!.y).toBeLessThan(900)
    const more = page.locator(".description button.more")
    expect(await more.textContent()).toContain("show all (6000 characters)")
    await more.click()
    expect((await run.boundingBox())!.y).toBeGreaterThan(900)
    expect(await more.getAttribute("aria-expanded")).toBe("true")
    await page.close()
  })

  test("what is selected is said to assistive technology, not only shown in colour", async () => {
    const page = await pageOnTool(session.browser, session.dev.url, "wordy")
    expect(await page.locator('[data-tool="wordy"]').getAttribute("aria-current")).toBe("true")
    expect(await page.locator('[data-tool="pick"]').getAttribute("aria-current")).toBeNull()
    await visibleForm(page).locator('[data-mode="json"]').click()
    expect(await visibleForm(page).locator('[data-mode="json"]').getAttribute("aria-pressed")).toBe("true")
    expect(await visibleForm(page).locator('[data-mode="form"]').getAttribute("aria-pressed")).toBe("false")
    expect(await page.locator('[data-tab="call"]').getAttribute("aria-pressed")).toBe("true")
    await page.close()
  })

  test("a required number field left empty is marked, and stops the call instead of dropping its key", async () => {
    const page = await pageOnTool(session.browser, session.dev.url, "count")
    const field = visibleForm(page).locator('[data-field="n"]')
    expect(await field.inputValue()).toBe("0")
    await field.fill("")
    expect(await field.getAttribute("aria-invalid")).toBe("true")
    expect(await visibleForm(page).locator('[data-field-problem="n"]').textContent()).toBe("empty: type a number")
    const before = await page.locator("[data-history]").count()
    await visibleForm(page).locator('[data-testid="run"]').click()
    expect(await visibleForm(page).locator('[data-testid="form-problem"]').textContent()).toContain("n needs a number")

    // As JSON (or raw text), the form's arguments are what it shows: no "n", not its last number.
    await field.fill("7")
    await field.fill("")
    await visibleForm(page).locator('button[data-mode="json"]').click()
    expect(JSON.parse(await visibleForm(page).locator('[data-testid="json-editor"]').inputValue())).toEqual({})
    await visibleForm(page).locator('button[data-mode="form"]').click()

    // Typed again, it runs: the next call in the history is that one, the empty form sent nothing.
    await field.fill("3")
    expect(await field.getAttribute("aria-invalid")).toBeNull()
    await visibleForm(page).locator('[data-testid="run"]').click()
    const modelView = page.locator('[data-testid="model-view"]')
    await expect.poll(() => modelView.textContent(), { timeout: 60_000 }).toBe('{"n":3}')
    expect(await page.locator('[data-testid="result"]').getAttribute("data-call")).toBe(String(before + 1))
    expect(await page.locator("[data-history]").count()).toBe(before + 1)
    await page.close()
  })
})
