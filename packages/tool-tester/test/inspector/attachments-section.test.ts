// dev's result pane, for a tool that returns attachments: what the model's next request carries
// (RunResult.modelMessages, docs/opencode-contract.md#attachments), beside the attachments opencode
// keeps. With dev's default provider, openai-compatible, a text file goes into the tool message as
// a file-data part, and an image moves to a user message the model without image input cannot read.
import { describe, expect, test } from "vitest"
import { noChromium, openedLive, pageOnTool, useInspectorSession } from "./_inspector.ts"

const attach = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Returns a text file and an image",
  args: {},
  async execute() {
    // A 1x1 PNG.
    const png =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    return {
      output: "see files",
      attachments: [
        { type: "file", mime: "text/plain", url: "data:text/plain;base64,aGVsbG8=" },
        { type: "file", mime: "image/png", filename: "dot.png", url: "data:image/png;base64," + png },
      ],
    }
  },
})
`

const pdf = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Returns a PDF",
  args: {},
  async execute() {
    return { output: "see pdf", attachments: [{ type: "file", mime: "application/pdf", url: "data:application/pdf;base64,JVBERi0xLjQK" }] }
  },
})
`

const skipped = noChromium === undefined ? "" : ` (skipped: ${noChromium})`
describe.skipIf(noChromium !== undefined)(`dev's result pane with attachments${skipped}`, { timeout: 240_000 }, () => {
  const session = useInspectorSession({ ".opencode/tools/attach.ts": attach, ".opencode/tools/pdf.ts": pdf })

  test("shows the messages the model's request carries for them", async () => {
    const page = await session.browser.newPage({ viewport: { width: 1440, height: 900 } })
    await openedLive(page, session.dev.url)
    await page.locator('[data-tool="attach"]').click()
    await page.locator('[data-testid="call-form"]:visible [data-testid="run"]').click()
    const carried = page.locator("details", { hasText: "With the attachments, the model's request carries" })
    await expect.poll(() => carried.count(), { timeout: 60_000 }).toBe(1)
    const text = (await carried.textContent()) ?? ""
    expect(text).toContain('"role": "tool"')
    expect(text).toContain("file-data")
    expect(text).toContain("Attached media from tool result:")
    expect(text).toContain(
      'ERROR: Cannot read \\"dot.png\\" (this model does not support image input). Inform the user.',
    )
    await page.close()
  })

  test("the model picker makes the calls for another provider, and a history entry puts its model back", async () => {
    const page = await pageOnTool(session.browser, session.dev.url, "attach")
    const form = page.locator('[data-testid="call-form"]:visible')
    await form.locator('[data-testid="model-picker"] summary').click()
    await form.locator('[data-testid="model-provider"]').selectOption("anthropic")
    expect(await form.locator('[data-testid="model-label"]').textContent()).toBe("anthropic / mock-model")
    await form.locator('[data-testid="run"]').click()
    const carried = page.locator("details", {
      hasText: "With the attachments, the model's request carries (anthropic / mock-model)",
    })
    await expect.poll(() => carried.count(), { timeout: 60_000 }).toBe(1)
    const first = await page.locator('[data-testid="result"]').getAttribute("data-call")
    // Anthropic's messages API: the result is a tool_result block, the image kept in it.
    expect((await carried.textContent()) ?? "").toContain('"type": "tool_result"')

    // xai with PDF input: opencode's run ends as it writes the next request.
    await page.locator('[data-tool="pdf"]').click()
    const pdfForm = page.locator('[data-testid="call-form"]:visible')
    await pdfForm.locator('[data-testid="model-picker"] summary').click()
    await pdfForm.locator('[data-testid="model-provider"]').selectOption("xai")
    await pdfForm.locator('[data-testid="model-input-pdf"]').check()
    expect(await pdfForm.locator('[data-testid="model-label"]').textContent()).toBe("xai / mock-model (reads pdf)")
    await pdfForm.locator('[data-testid="run"]').click()
    const refused = page.locator('[data-testid="model-messages"]')
    await expect.poll(() => refused.textContent(), { timeout: 60_000 }).toContain("The model never gets this result")
    expect(await refused.textContent()).toContain("'file part media type application/pdf' functionality not supported.")

    // The first call put back: its tool, and the model it was made for.
    await page.locator(`[data-history="${first}"] button.link`).click()
    await expect
      .poll(() => page.locator('[data-testid="call-form"]:visible [data-testid="model-label"]').textContent())
      .toBe("anthropic / mock-model")
    await page.close()
  })

  // Last: the picker keeps each tool's model, and this one leaves image input checked.
  test("cohere with image input: the image is one of the request's documents, its base64 data as text", async () => {
    const page = await pageOnTool(session.browser, session.dev.url, "attach")
    const form = page.locator('[data-testid="call-form"]:visible')
    await form.locator('[data-testid="model-picker"] summary').click()
    await form.locator('[data-testid="model-provider"]').selectOption("cohere")
    await form.locator('[data-testid="model-input-image"]').check()
    await form.locator('[data-testid="run"]').click()
    const documents = page.locator("details", { hasText: "And in the request's documents" })
    await expect.poll(() => documents.count(), { timeout: 60_000 }).toBe(1)
    const text = (await documents.textContent()) ?? ""
    expect(text).toContain('"title": "dot.png"')
    expect(text).toContain('"text": "iVBORw0KGgo')
    await page.close()
  })
})
