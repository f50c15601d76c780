// What the model receives for a result with attachments, per provider and model input
// (docs/opencode-contract.md#attachments). Every literal is what opencode 1.18.34 sent e2e's mock
// model for test/fixtures/attachments' tool, one call per `tool-tester e2e` run, with
// `--provider openai-compatible`, `openai`, `anthropic` or `google` (`--model gemini-2.5-pro`,
// `gemini-3-pro-preview`, `preview-gemini-3-pro`) and, for a model with image and PDF input,
// `--config '{"provider":{"mock":{"models":{"mock-model":{"modalities":{"input":["text","image","pdf"],"output":["text"]}}}}}}'`
// (the messages after the assistant's call in the next request). Before, `output` was always the
// tool's own text and nothing said what else the model received.
import { describe, expect, test } from "vitest"
import type { ModelModality, RunResult } from "../src/index.ts"
import { closeProject, loadTools, runTool } from "../src/index.ts"
import { fixture } from "./helpers.ts"
import { useLoadedFixture } from "./support/loaded-fixture.ts"

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg=="
const PDF = "data:application/pdf;base64,JVBERi0xLjQK"
const MOVED = { type: "text", text: "Attached media from tool result:" }
const OMITTED = "\n\n[1 image omitted: could not be resized below the image size limit.]"
const cannotRead = (what: string, modality: string) => ({
  type: "text",
  text: `ERROR: Cannot read ${what} (this model does not support ${modality} input). Inform the user.`,
})
const cannotReadPart = (what: string, modality: string) => ({ text: cannotRead(what, modality).text })
const tool = (content: string) => ({ role: "tool", tool_call_id: "call_1", content })
const compatible = { npm: "@ai-sdk/openai-compatible", providerID: "mock", modelID: "mock-model" }
const openai = { npm: "@ai-sdk/openai", providerID: "openai", modelID: "mock-model" }

const loaded = useLoadedFixture("attachments")

/**
 * The tool message's content for case `several` when the provider keeps its image in the result
 * (and its PDF, with `pdf`): the JSON text of every part in order, the image as `image-data`.
 */
function severalKept({ pdf }: { pdf: boolean }): string {
  return JSON.stringify([
    { type: "text", text: "see several" },
    { type: "file-data", data: "aGVsbG8=", mediaType: "text/plain" },
    { type: "image-data", data: PNG.slice(PNG.indexOf(",") + 1), mediaType: "image/png" },
    ...(pdf ? [{ type: "file-data", data: "JVBERi0xLjQK", mediaType: "application/pdf" }] : []),
    { type: "file-data", data: "d29ybGQ=", mediaType: "text/plain" },
  ])
}

function call(which: string, model = compatible, modelInput: ModelModality[] = []): Promise<RunResult> {
  return runTool(loaded.project, "attach", { case: which }, { model, modelInput, callID: "call_1" })
}

describe("openai-compatible (chat completions), a model without image or PDF input", () => {
  test("a text file: the tool message is the JSON text of its parts", async () => {
    const result = await call("text")
    expect(result.output).toBe("see text")
    expect(result.modelMessages).toEqual([
      tool('[{"type":"text","text":"see text"},{"type":"file-data","data":"aGVsbG8=","mediaType":"text/plain"}]'),
    ])
  })

  test("an image or a PDF: the output alone, then a user message saying the model cannot read it", async () => {
    expect((await call("png")).modelMessages).toEqual([
      tool("see png"),
      { role: "user", content: [MOVED, cannotRead('"dot.png"', "image")] },
    ])
    expect((await call("pdf")).modelMessages).toEqual([
      tool("see pdf"),
      { role: "user", content: [MOVED, cannotRead('"doc.pdf"', "pdf")] },
    ])
  })

  test("several: files in the tool message in order, images and PDFs moved to the user message", async () => {
    expect((await call("several")).modelMessages).toEqual([
      tool(
        '[{"type":"text","text":"see several"},{"type":"file-data","data":"aGVsbG8=","mediaType":"text/plain"},{"type":"file-data","data":"d29ybGQ=","mediaType":"text/plain"}]',
      ),
      { role: "user", content: [MOVED, cannotRead('"dot.png"', "image"), cannotRead('"doc.pdf"', "pdf")] },
    ])
  })

  test("an https image, or one that cannot be decoded, is dropped and the output says so", async () => {
    for (const which of ["httpsImage", "badPng"]) {
      const result = await call(which)
      const output = `${which === "badPng" ? "see bad" : "see http"}${OMITTED}`
      expect(result.output).toBe(output)
      expect(result.attachments).toBeUndefined()
      expect(result.modelMessages).toEqual([tool(output)])
    }
  })

  test("an https file is left out of the parts; an empty output gives no text part; a plain data URL its text", async () => {
    expect((await call("httpsText")).modelMessages).toEqual([tool('[{"type":"text","text":"see http"}]')])
    expect((await call("emptyOutput")).modelMessages).toEqual([
      tool('[{"type":"file-data","data":"aGVsbG8=","mediaType":"text/plain"}]'),
    ])
    expect((await call("plainDataUrl")).modelMessages).toEqual([
      tool('[{"type":"text","text":"see plain"},{"type":"file-data","data":"hello%20there","mediaType":"text/plain"}]'),
    ])
  })

  test("an attachment that is no file part (or has a filename that is no string) is not kept", async () => {
    for (const [which, output] of [
      ["notFile", "see other"],
      ["badFilename", "see bad name"],
    ]) {
      const result = await call(which!)
      expect(result.attachments).toBeUndefined()
      expect(result.modelMessages).toEqual([tool(output!)])
    }
  })

  test("a file part whose source opencode's part schema refuses is left out", async () => {
    // Of the fixture's 21 sources, opencode 1.18.34 sent these (observed, `sources` case).
    const kept = [0, 4, 9, 11, 13, 15, 16, 20]
    const files = kept.map((index) => ({
      type: "file-data",
      data: Buffer.from(`source ${index}`).toString("base64"),
      mediaType: "text/plain",
    }))
    const result = await call("sources")
    expect(result.modelMessages).toEqual([tool(JSON.stringify([{ type: "text", text: "see sources" }, ...files]))])
    expect(result.attachments).toHaveLength(kept.length)
  })

  test("each attachment gets a part id and the call's session and message, as opencode stamps them", async () => {
    const result = await runTool(
      loaded.project,
      "attach",
      { case: "several" },
      { sessionID: "my-session", messageID: "my-message" },
    )
    const stamped = result.attachments as Array<Record<string, unknown>>
    expect(stamped.map(({ id, ...rest }) => [typeof id === "string" && /^prt_/.test(id), rest])).toEqual([
      [
        true,
        {
          type: "file",
          mime: "text/plain",
          url: "data:text/plain;base64,aGVsbG8=",
          filename: "hello.txt",
          sessionID: "my-session",
          messageID: "my-message",
        },
      ],
      [
        true,
        {
          type: "file",
          mime: "image/png",
          url: PNG,
          filename: "dot.png",
          sessionID: "my-session",
          messageID: "my-message",
        },
      ],
      [
        true,
        {
          type: "file",
          mime: "application/pdf",
          url: PDF,
          filename: "doc.pdf",
          sessionID: "my-session",
          messageID: "my-message",
        },
      ],
      [
        true,
        {
          type: "file",
          mime: "text/plain",
          url: "data:text/plain;base64,d29ybGQ=",
          sessionID: "my-session",
          messageID: "my-message",
        },
      ],
    ])
    expect(new Set(stamped.map((attachment) => attachment["id"])).size).toBe(4)
  })

  test("a tool.execute.after hook sees the stamped attachments, and the list it puts there is the one kept", async () => {
    // Observed (`hookReplaces`): of the hook's six, the one without ids, the one with the id
    // `chosen` and the one of another session are left out.
    const result = await call("hookReplaces")
    const keys = '["type","mime","url","filename","id","sessionID","messageID"]'
    const output = `see hooked given=[${keys},${keys}] ids=prt_|ses_|msg_,prt_|ses_|msg_`
    expect(result.output).toBe(output)
    expect(result.modelMessages).toEqual([
      tool(
        JSON.stringify([
          { type: "text", text: output },
          { type: "file-data", data: "aGVsbG8=", mediaType: "text/plain" },
          { type: "file-data", data: "cHJ0IGlk", mediaType: "text/plain" },
        ]),
      ),
      { role: "user", content: [MOVED, cannotRead('"dot.png"', "image")] },
    ])
    expect((result.attachments as Array<{ id: string }>).map((attachment) => attachment.id)).toEqual([
      expect.stringMatching(/^prt_/),
      "prt_chosen",
      expect.stringMatching(/^prt_/),
    ])
    // A value that is no list: no attachments, and the model still gets the result.
    const none = await call("hookNotList")
    expect(none.attachments).toBeUndefined()
    expect(none.modelMessages).toEqual([tool("see hooked")])
  })

  test("a PDF without a filename is named by its input", async () => {
    expect((await call("pdfNoName")).modelMessages).toEqual([
      tool("see pdf"),
      { role: "user", content: [MOVED, cannotRead("pdf", "pdf")] },
    ])
  })
})

test("openai-compatible, a claude model id: the tool message and the user message's last part are marked for caching", async () => {
  // Observed with `--model claude-sonnet-4` (and `claude-x` with image and PDF input).
  const claude = { npm: "@ai-sdk/openai-compatible", providerID: "mock", modelID: "claude-sonnet-4" }
  const mark = { cache_control: { type: "ephemeral" } }
  expect((await call("text", claude)).modelMessages).toEqual([
    {
      ...tool('[{"type":"text","text":"see text"},{"type":"file-data","data":"aGVsbG8=","mediaType":"text/plain"}]'),
      ...mark,
    },
  ])
  expect((await call("png", claude)).modelMessages).toEqual([
    { ...tool("see png"), ...mark },
    { role: "user", content: [MOVED, { ...cannotRead('"dot.png"', "image"), ...mark }] },
  ])
})

test("xai: chat completions with images kept in the tool message as image-data; no messages, and the run's error, for a PDF it fails on", async () => {
  // Observed with `--provider xai`; with PDF input declared opencode's run failed ("'file part media
  // type application/pdf' functionality not supported").
  const xai = { npm: "@ai-sdk/xai", providerID: "xai", modelID: "grok-4" }
  expect((await call("several", xai)).modelMessages).toEqual([
    tool(severalKept({ pdf: false })),
    { role: "user", content: [MOVED, cannotRead('"doc.pdf"', "pdf")] },
  ])
  expect((await call("several", xai)).modelRequestError).toBeUndefined()
  const withPdf = await call("several", xai, ["pdf"])
  expect(withPdf.modelMessages).toBeNull()
  expect(withPdf.modelRequestError).toBe("'file part media type application/pdf' functionality not supported.")
  // Images stay in the result: only a PDF the model reads is refused.
  expect((await call("png", xai, ["image", "pdf"])).modelRequestError).toBeUndefined()
  expect((await call("several", compatible, ["pdf"])).modelRequestError).toBeUndefined()
})

test("openai-compatible, a model with image and PDF input: the user message carries the files", async () => {
  expect((await call("several", compatible, ["image", "pdf"])).modelMessages).toEqual([
    tool(
      '[{"type":"text","text":"see several"},{"type":"file-data","data":"aGVsbG8=","mediaType":"text/plain"},{"type":"file-data","data":"d29ybGQ=","mediaType":"text/plain"}]',
    ),
    {
      role: "user",
      content: [
        MOVED,
        { type: "image_url", image_url: { url: PNG } },
        { type: "file", file: { filename: "doc.pdf", file_data: PDF } },
      ],
    },
  ])
})

test("openai-compatible, a model with PDF input: a PDF without a filename is sent as document.pdf", async () => {
  expect((await call("pdfNoName", compatible, ["pdf"])).modelMessages).toEqual([
    tool("see pdf"),
    { role: "user", content: [MOVED, { type: "file", file: { filename: "document.pdf", file_data: PDF } }] },
  ])
})

test("openai (responses API): every file in the call's output, whatever the model's input", async () => {
  const expected = [
    {
      type: "function_call_output",
      call_id: "call_1",
      output: [
        { type: "input_text", text: "see several" },
        { type: "input_file", filename: "data", file_data: "data:text/plain;base64,aGVsbG8=" },
        { type: "input_image", image_url: PNG },
        { type: "input_file", filename: "data", file_data: PDF },
        { type: "input_file", filename: "data", file_data: "data:text/plain;base64,d29ybGQ=" },
      ],
    },
  ]
  expect((await call("several", openai)).modelMessages).toEqual(expected)
  expect((await call("several", openai, ["image", "pdf"])).modelMessages).toEqual(expected)
  expect((await call("httpsText", openai)).modelMessages).toEqual([
    { type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: "see http" }] },
  ])
})

describe("anthropic (messages API), whatever the model's input", () => {
  const anthropic = { npm: "@ai-sdk/anthropic", providerID: "anthropic", modelID: "claude-sonnet-4-5" }
  const base64 = (media_type: string, data: string) => ({ type: "base64", media_type, data })
  /** The user message of the next request holding the result, the last part of it: marked for caching. */
  const toolResult = (content: unknown) => [
    {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "call_1", content, cache_control: { type: "ephemeral" } }],
    },
  ]

  test("images and PDFs stay in the tool_result as image and document blocks; other files are left out", async () => {
    const expected = toolResult([
      { type: "text", text: "see several" },
      { type: "image", source: base64("image/png", PNG.slice(PNG.indexOf(",") + 1)) },
      { type: "document", source: base64("application/pdf", "JVBERi0xLjQK") },
    ])
    expect((await call("several", anthropic)).modelMessages).toEqual(expected)
    expect((await call("several", anthropic, ["image", "pdf"])).modelMessages).toEqual(expected)
    expect((await call("pdfNoName", anthropic)).modelMessages).toEqual(
      toolResult([
        { type: "text", text: "see pdf" },
        { type: "document", source: base64("application/pdf", "JVBERi0xLjQK") },
      ]),
    )
  })

  test("a result whose files are all left out is a list of its text alone, or an empty list", async () => {
    for (const [which, output] of [
      ["text", "see text"],
      ["otherFiles", "see others"],
      ["plainDataUrl", "see plain"],
      ["httpsText", "see http"],
    ]) {
      expect((await call(which!, anthropic)).modelMessages).toEqual(toolResult([{ type: "text", text: output }]))
    }
    expect((await call("emptyOutput", anthropic)).modelMessages).toEqual(toolResult([]))
  })

  test("an image it cannot read, or no file part: the output as the tool_result's text", async () => {
    expect((await call("badPng", anthropic)).modelMessages).toEqual(toolResult(`see bad${OMITTED}`))
    expect((await call("notFile", anthropic)).modelMessages).toEqual(toolResult("see other"))
  })
})

describe("google (generateContent): the result is a functionResponse named for the tool", () => {
  const google = (modelID: string) => ({ npm: "@ai-sdk/google", providerID: "google", modelID })
  const gemini25 = google("gemini-2.5-pro")
  const gemini3 = google("gemini-3-pro-preview")
  const response = (content: string, files?: unknown[]) => ({
    functionResponse: {
      name: "attach",
      response: { name: "attach", content },
      ...(files === undefined ? {} : { parts: files }),
    },
  })
  const inline = (mimeType: string, data: string) => ({ inlineData: { mimeType, data } })
  const fileData = (data: string, mediaType: string) => ({
    text: JSON.stringify({ type: "file-data", data, mediaType }),
  })
  const user = (...parts: unknown[]) => ({ role: "user", parts })
  const moved = (...parts: unknown[]) => user({ text: MOVED.text }, ...parts)
  const PNG_DATA = PNG.slice(PNG.indexOf(",") + 1)

  test("before gemini-3: the text in the functionResponse, each other file the JSON text of its part", async () => {
    expect((await call("text", gemini25)).modelMessages).toEqual([
      user(response("see text"), fileData("aGVsbG8=", "text/plain")),
    ])
    expect((await call("otherFiles", gemini25)).modelMessages).toEqual([
      user(response("see others"), fileData("UklGRg==", "audio/wav"), fileData("e30=", "application/json")),
    ])
    expect((await call("plainDataUrl", gemini25)).modelMessages).toEqual([
      user(response("see plain"), fileData("hello%20there", "text/plain")),
    ])
    // No text, no functionResponse: the files alone.
    expect((await call("emptyOutput", gemini25)).modelMessages).toEqual([user(fileData("aGVsbG8=", "text/plain"))])
  })

  test("google-vertex: the same contents, but a file of the result's own is inlineData and a sentence", async () => {
    // Observed with `--provider google-vertex` (`--model gemini-2.5-pro`, `gemini-3-pro-preview`).
    const vertex = (modelID: string) => ({ npm: "@ai-sdk/google-vertex", providerID: "google-vertex", modelID })
    const sentence = { text: "Tool executed successfully and returned this file as a response" }
    expect((await call("several", vertex("gemini-2.5-pro"))).modelMessages).toEqual([
      user(
        response("see several"),
        inline("text/plain", "aGVsbG8="),
        sentence,
        inline("text/plain", "d29ybGQ="),
        sentence,
      ),
      moved(cannotReadPart('"dot.png"', "image"), cannotReadPart('"doc.pdf"', "pdf")),
    ])
    expect((await call("emptyOutput", vertex("gemini-2.5-pro"))).modelMessages).toEqual([
      user(inline("text/plain", "aGVsbG8="), sentence),
    ])
    // gemini-3: the files inside the functionResponse, as with google; its media still moved.
    expect((await call("several", vertex("gemini-3-pro-preview"))).modelMessages).toEqual([
      user(response("see several", [inline("text/plain", "aGVsbG8="), inline("text/plain", "d29ybGQ=")])),
      moved(cannotReadPart('"dot.png"', "image"), cannotReadPart('"doc.pdf"', "pdf")),
    ])
  })

  test("before gemini-3: images and PDFs are moved to a user message, as errors or as inlineData", async () => {
    expect((await call("several", gemini25)).modelMessages).toEqual([
      user(response("see several"), fileData("aGVsbG8=", "text/plain"), fileData("d29ybGQ=", "text/plain")),
      moved(cannotReadPart('"dot.png"', "image"), cannotReadPart('"doc.pdf"', "pdf")),
    ])
    expect((await call("pdfNoName", gemini25)).modelMessages).toEqual([
      user(response("see pdf")),
      moved(cannotReadPart("pdf", "pdf")),
    ])
    expect((await call("several", gemini25, ["image", "pdf"])).modelMessages).toEqual([
      user(response("see several"), fileData("aGVsbG8=", "text/plain"), fileData("d29ybGQ=", "text/plain")),
      moved(inline("image/png", PNG_DATA), inline("application/pdf", "JVBERi0xLjQK")),
    ])
    // The default mock-model id is no gemini-3 either.
    expect((await call("pngNoName", google("mock-model"), ["image"])).modelMessages).toEqual([
      user(response("see png")),
      moved(inline("image/png", PNG_DATA)),
    ])
  })

  test("gemini-3: every file inside the functionResponse as inlineData, whatever the model's input", async () => {
    const several = [
      user(
        response("see several", [
          inline("text/plain", "aGVsbG8="),
          inline("image/png", PNG_DATA),
          inline("application/pdf", "JVBERi0xLjQK"),
          inline("text/plain", "d29ybGQ="),
        ]),
      ),
    ]
    expect((await call("several", gemini3)).modelMessages).toEqual(several)
    expect((await call("several", gemini3, ["image", "pdf"])).modelMessages).toEqual(several)
    expect((await call("plainDataUrl", gemini3)).modelMessages).toEqual([
      user(response("see plain", [inline("text/plain", "hello%20there")])),
    ])
    expect((await call("emptyOutput", gemini3)).modelMessages).toEqual([
      user(response("Tool executed successfully.", [inline("text/plain", "aGVsbG8=")])),
    ])
  })

  test("an id with gemini-3 inside, not first: media stay in the result, each a part of its own", async () => {
    expect((await call("several", google("preview-gemini-3-pro"))).modelMessages).toEqual([
      user(
        response("see several"),
        fileData("aGVsbG8=", "text/plain"),
        inline("image/png", PNG_DATA),
        { text: "Tool executed successfully and returned this image as a response" },
        fileData("JVBERi0xLjQK", "application/pdf"),
        fileData("d29ybGQ=", "text/plain"),
      ),
    ])
  })

  test("no attachment left: the output as the functionResponse's content, for any model", async () => {
    for (const model of [gemini25, gemini3]) {
      expect((await call("badPng", model)).modelMessages).toEqual([user(response(`see bad${OMITTED}`))])
      expect((await call("httpsImage", model)).modelMessages).toEqual([user(response(`see http${OMITTED}`))])
      expect((await call("httpsText", model)).modelMessages).toEqual([user(response("see http"))])
      expect((await call("notFile", model)).modelMessages).toEqual([user(response("see other"))])
    }
  })
})

describe("gateway (the AI SDK's own prompt): one tool-result part, then the moved files", () => {
  // Observed with `--provider @ai-sdk/gateway` (and `--model anthropic/claude-sonnet-4`: no caching marks).
  const gateway = { npm: "@ai-sdk/gateway", providerID: "gateway", modelID: "anthropic/claude-sonnet-4" }
  const toolResult = (output: unknown) => ({
    role: "tool",
    content: [{ type: "tool-result", toolCallId: "call_1", toolName: "attach", output }],
  })

  test("the text alone is a text output; with files sent as data, a content output of its parts", async () => {
    expect((await call("notFile", gateway)).modelMessages).toEqual([toolResult({ type: "text", value: "see other" })])
    expect((await call("text", gateway)).modelMessages).toEqual([
      toolResult({
        type: "content",
        value: [
          { type: "text", text: "see text" },
          { type: "file-data", data: "aGVsbG8=", mediaType: "text/plain" },
        ],
      }),
    ])
    // No text part for an empty output; an https file is left out of the parts.
    expect((await call("emptyOutput", gateway)).modelMessages).toEqual([
      toolResult({ type: "content", value: [{ type: "file-data", data: "aGVsbG8=", mediaType: "text/plain" }] }),
    ])
    expect((await call("httpsText", gateway)).modelMessages).toEqual([
      toolResult({ type: "content", value: [{ type: "text", text: "see http" }] }),
    ])
  })

  test("images and PDFs are moved to a user message: file parts of base64 data, or the error text", async () => {
    const severalOutput = {
      type: "content",
      value: [
        { type: "text", text: "see several" },
        { type: "file-data", data: "aGVsbG8=", mediaType: "text/plain" },
        { type: "file-data", data: "d29ybGQ=", mediaType: "text/plain" },
      ],
    }
    expect((await call("several", gateway)).modelMessages).toEqual([
      toolResult(severalOutput),
      { role: "user", content: [MOVED, cannotRead('"dot.png"', "image"), cannotRead('"doc.pdf"', "pdf")] },
    ])
    expect((await call("several", gateway, ["image", "pdf"])).modelMessages).toEqual([
      toolResult(severalOutput),
      {
        role: "user",
        content: [
          MOVED,
          { type: "file", mediaType: "image/png", filename: "dot.png", data: PNG.slice(PNG.indexOf(",") + 1) },
          { type: "file", mediaType: "application/pdf", filename: "doc.pdf", data: "JVBERi0xLjQK" },
        ],
      },
    ])
    // A file without a name has none.
    expect((await call("pdfNoName", gateway, ["image", "pdf"])).modelMessages).toEqual([
      toolResult({ type: "text", value: "see pdf" }),
      { role: "user", content: [MOVED, { type: "file", mediaType: "application/pdf", data: "JVBERi0xLjQK" }] },
    ])
  })
})

describe("cohere (Cohere's chat): text contents, the files the model reads as the request's documents", () => {
  // Observed with `--provider @ai-sdk/cohere`, and `--config` giving the model image (and PDF) input.
  const cohere = { npm: "@ai-sdk/cohere", providerID: "cohere", modelID: "mock-model" }
  const user = (...texts: string[]) => ({ role: "user", content: [MOVED.text, ...texts].join("") })

  test("the result's text alone, or its parts as JSON text; other providers have no modelDocuments", async () => {
    expect(await call("notFile", cohere)).toMatchObject({ modelMessages: [tool("see other")], modelDocuments: [] })
    expect((await call("text", cohere)).modelMessages).toEqual([
      tool(
        JSON.stringify([
          { type: "text", text: "see text" },
          { type: "file-data", data: "aGVsbG8=", mediaType: "text/plain" },
        ]),
      ),
    ])
    // An https file is left out, the parts kept; an empty output gives no text part.
    expect((await call("httpsText", cohere)).modelMessages).toEqual([
      tool(JSON.stringify([{ type: "text", text: "see http" }])),
    ])
    expect((await call("emptyOutput", cohere)).modelMessages).toEqual([
      tool(JSON.stringify([{ type: "file-data", data: "aGVsbG8=", mediaType: "text/plain" }])),
    ])
    expect((await call("badPng", cohere)).modelMessages).toEqual([tool(`see bad${OMITTED}`)])
    expect("modelDocuments" in (await call("text"))).toBe(false)
  })

  test("images and PDFs are moved: the user message's text holds the errors, the files the model reads are documents", async () => {
    const several = await call("several", cohere)
    expect(several.modelMessages).toEqual([
      tool(
        JSON.stringify([
          { type: "text", text: "see several" },
          { type: "file-data", data: "aGVsbG8=", mediaType: "text/plain" },
          { type: "file-data", data: "d29ybGQ=", mediaType: "text/plain" },
        ]),
      ),
      user(cannotRead('"dot.png"', "image").text, cannotRead('"doc.pdf"', "pdf").text),
    ])
    expect(several.modelDocuments).toEqual([])
    // Read: nothing in the user message but the heading, each file's base64 data a document's text.
    const read = await call("several", cohere, ["image", "pdf"])
    expect(read.modelMessages?.[1]).toEqual(user())
    expect(read.modelDocuments).toEqual([
      { data: { text: PNG.slice(PNG.indexOf(",") + 1), title: "dot.png" } },
      { data: { text: "JVBERi0xLjQK", title: "doc.pdf" } },
    ])
    // A file without a name has no title.
    const pdf = await call("pdfNoName", cohere, ["pdf"])
    expect(pdf.modelMessages).toEqual([tool("see pdf"), user()])
    expect(pdf.modelDocuments).toEqual([{ data: { text: "JVBERi0xLjQK" } }])
    // A model that reads images only.
    const png = await call("png", cohere, ["image"])
    expect(png.modelMessages).toEqual([tool("see png"), user()])
    expect(png.modelDocuments).toEqual([{ data: { text: PNG.slice(PNG.indexOf(",") + 1), title: "dot.png" } }])
  })
})

test("a provider whose API is not modelled: null; a result without attachments has no modelMessages", async () => {
  const ollama = { npm: "ollama-ai-provider", providerID: "ollama", modelID: "mock-model" }
  const unmodelled = await call("text", ollama)
  expect(unmodelled.modelMessages).toBeNull()
  expect("modelDocuments" in unmodelled).toBe(false)
  const empty = await call("empty")
  expect(empty.output).toBe("see none")
  expect("modelMessages" in empty).toBe(false)
})

test("modelInput must list known inputs", async () => {
  await expect(call("text", compatible, ["images" as ModelModality])).rejects.toThrow(
    "modelInput must be a list of image, audio, video, pdf",
  )
})

describe("amazon-bedrock (Converse): one user message with the toolResult, then the moved files", () => {
  // Observed with `--provider amazon-bedrock` (and `--model anthropic.claude-x`), one call per run.
  const bedrock = { npm: "@ai-sdk/amazon-bedrock", providerID: "mock", modelID: "mock-model" }
  const claude = { ...bedrock, modelID: "anthropic.claude-x" }
  const png = PNG.slice(PNG.indexOf(",") + 1)
  const txt = (name: string, bytes: string) => ({ document: { format: "txt", name, source: { bytes } } })
  const pdf = (name: string) => ({ document: { format: "pdf", name, source: { bytes: "JVBERi0xLjQK" } } })
  const image = { image: { format: "png", source: { bytes: png } } }
  const cachePoint = { cachePoint: { type: "default" } }
  const user = (content: unknown[], ...after: unknown[]) => [
    { role: "user", content: [{ toolResult: { toolUseId: "call_1", content } }, ...after] },
  ]

  test("the result's files are documents named document-N; images and PDFs follow it, or their errors", async () => {
    expect((await call("text", bedrock)).modelMessages).toEqual(
      user([{ text: "see text" }, txt("document-1", "aGVsbG8=")]),
    )
    expect((await call("emptyOutput", bedrock)).modelMessages).toEqual(user([txt("document-1", "aGVsbG8=")]))
    expect((await call("plainDataUrl", bedrock)).modelMessages).toEqual(
      user([{ text: "see plain" }, txt("document-1", "hello%20there")]),
    )
    expect((await call("several", bedrock)).modelMessages).toEqual(
      user(
        [{ text: "see several" }, txt("document-1", "aGVsbG8="), txt("document-2", "d29ybGQ=")],
        { text: MOVED.text },
        cannotReadPart('"dot.png"', "image"),
        cannotReadPart('"doc.pdf"', "pdf"),
      ),
    )
    expect((await call("badPng", bedrock)).modelMessages).toEqual(user([{ text: `see bad${OMITTED}` }]))
  })

  test("with image and PDF input: the moved image, and each PDF named after its file up to the first dot", async () => {
    expect((await call("several", bedrock, ["image", "pdf"])).modelMessages).toEqual(
      user(
        [{ text: "see several" }, txt("document-1", "aGVsbG8="), txt("document-2", "d29ybGQ=")],
        { text: MOVED.text },
        image,
        pdf("doc"),
      ),
    )
    expect((await call("pdfDotted", bedrock, ["pdf"])).modelMessages).toEqual(
      user([{ text: "see pdf" }], { text: MOVED.text }, pdf("q3")),
    )
    // No filename: the request's next document-N.
    expect((await call("pdfNoName", bedrock, ["pdf"])).modelMessages).toEqual(
      user([{ text: "see pdf" }], { text: MOVED.text }, pdf("document-1")),
    )
  })

  test("an anthropic. model: images stay in the result, and a cache point follows it and the moved files", async () => {
    expect((await call("several", claude, ["image", "pdf"])).modelMessages).toEqual(
      user(
        [{ text: "see several" }, txt("document-1", "aGVsbG8="), image, txt("document-2", "d29ybGQ=")],
        cachePoint,
        { text: MOVED.text },
        pdf("doc"),
        cachePoint,
      ),
    )
    expect((await call("text", claude)).modelMessages).toEqual(
      user([{ text: "see text" }, txt("document-1", "aGVsbG8=")], cachePoint),
    )
  })

  test("a file Converse has no document format for fails opencode's run: no messages, the run's error", async () => {
    const json = await call("json", bedrock)
    expect(json.modelMessages).toBeNull()
    expect(json.modelRequestError).toBe(
      "Unsupported file mime type: application/json, expected one of: application/pdf, text/csv, application/msword, application/vnd.openxmlformats-officedocument.wordprocessingml.document, application/vnd.ms-excel, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, text/html, text/plain, text/markdown",
    )
    // The first such file in the result's order: the WAV before the JSON.
    expect((await call("otherFiles", bedrock)).modelRequestError).toMatch(/^Unsupported file mime type: audio\/wav,/)
    expect((await call("text", bedrock)).modelRequestError).toBeUndefined()
  })

  test("a Mistral model's call id: its first 9 letters and digits", async () => {
    const mistral = { ...bedrock, modelID: "mistral.mistral-large-x" }
    const result = await runTool(
      loaded.project,
      "attach",
      { case: "text" },
      { model: mistral, modelInput: [], callID: "call_abc-123_def" },
    )
    expect(result.modelMessages).toEqual([
      { role: "user", content: [{ toolResult: { toolUseId: "callabc12", content: expect.any(Array) } }] },
    ])
    // And the tool gets it as context.callID, as in opencode (test/e2e/provider-apis.test.ts).
    const echo = await loadTools({ directory: fixture("e2e-round-trip"), global: false, engine: "node" })
    try {
      const echoed = await runTool(echo, "echo", { message: "hi" }, { model: mistral, callID: "call_abc-123_def" })
      expect(echoed.output).toBe("echo: hi (call callabc12)")
    } finally {
      await closeProject(echo)
    }
  })
})

describe("the other chat-completions packages and azure: each one's own details", () => {
  // Observed with `--provider mistral`, `openrouter`, `groq`, `amazon-bedrock-mantle` and `azure`
  // (and the npm packages named below).
  const model = (npm: string) => ({ npm, providerID: "mock", modelID: "mock-model" })
  const severalJson =
    '[{"type":"text","text":"see several"},{"type":"file-data","data":"aGVsbG8=","mediaType":"text/plain"},{"type":"file-data","data":"d29ybGQ=","mediaType":"text/plain"}]'

  test("mistral names the tool, and gives a moved image or PDF as a URL string", async () => {
    expect((await call("several", model("@ai-sdk/mistral"), ["image", "pdf"])).modelMessages).toEqual([
      { role: "tool", name: "attach", tool_call_id: "call_1", content: severalJson },
      {
        role: "user",
        content: [MOVED, { type: "image_url", image_url: PNG }, { type: "document_url", document_url: PDF }],
      },
    ])
  })

  test("openrouter: the result's files as file parts of the tool message, which names the tool last", async () => {
    const file = (data: string) => ({
      type: "file",
      file: { filename: "", file_data: `data:text/plain;base64,${data}` },
    })
    expect((await call("several", model("@openrouter/ai-sdk-provider"), ["image", "pdf"])).modelMessages).toEqual([
      {
        role: "tool",
        tool_call_id: "call_1",
        content: [{ type: "text", text: "see several" }, file("aGVsbG8="), file("d29ybGQ=")],
        name: "attach",
      },
      {
        role: "user",
        content: [
          MOVED,
          { type: "image_url", image_url: { url: PNG } },
          { type: "file", file: { filename: "doc.pdf", file_data: PDF } },
        ],
      },
    ])
    expect((await call("plainDataUrl", model("@openrouter/ai-sdk-provider"))).modelMessages).toEqual([
      {
        role: "tool",
        tool_call_id: "call_1",
        content: [{ type: "text", text: "see plain" }, file("hello%20there")],
        name: "attach",
      },
    ])
  })

  test("groq: openai-compatible's form, but a PDF the model reads fails opencode's run", async () => {
    const groq = model("@ai-sdk/groq")
    expect((await call("pngNoName", groq, ["image", "pdf"])).modelMessages).toEqual([
      tool("see png"),
      { role: "user", content: [MOVED, { type: "image_url", image_url: { url: PNG } }] },
    ])
    const pdf = await call("pdfNoName", groq, ["image", "pdf"])
    expect(pdf.modelMessages).toBeNull()
    expect(pdf.modelRequestError).toBe("'Non-image file content parts' functionality not supported.")
  })

  test("vercel: openai-compatible's form, caching marks included", async () => {
    // Observed with `--provider @ai-sdk/vercel`, and `--model claude-x` with image and PDF input.
    expect((await call("several", model("@ai-sdk/vercel"), ["image", "pdf"])).modelMessages).toEqual([
      tool(severalJson),
      {
        role: "user",
        content: [
          MOVED,
          { type: "image_url", image_url: { url: PNG } },
          { type: "file", file: { filename: "doc.pdf", file_data: PDF } },
        ],
      },
    ])
    const claude = { npm: "@ai-sdk/vercel", providerID: "vercel", modelID: "claude-x" }
    expect((await call("text", claude)).modelMessages).toEqual([
      {
        ...tool('[{"type":"text","text":"see text"},{"type":"file-data","data":"aGVsbG8=","mediaType":"text/plain"}]'),
        cache_control: { type: "ephemeral" },
      },
    ])
  })

  test("github-copilot: openai-compatible's form with its own caching marks; a PDF the model reads fails opencode's run", async () => {
    // Observed with `--provider @ai-sdk/github-copilot` (`--model claude-x` for the marks).
    const copilot = { npm: "@ai-sdk/github-copilot", providerID: "github-copilot", modelID: "gpt-4.1" }
    expect((await call("pngNoName", copilot, ["image", "pdf"])).modelMessages).toEqual([
      tool("see png"),
      { role: "user", content: [MOVED, { type: "image_url", image_url: { url: PNG } }] },
    ])
    const pdf = await call("pdfNoName", copilot, ["image", "pdf"])
    expect(pdf.modelMessages).toBeNull()
    expect(pdf.modelRequestError).toBe("'file part media type application/pdf' functionality not supported.")
    const mark = { copilot_cache_control: { type: "ephemeral" } }
    const claude = { ...copilot, modelID: "claude-x" }
    expect((await call("pngNoName", claude, ["image", "pdf"])).modelMessages).toEqual([
      { ...tool("see png"), ...mark },
      { role: "user", content: [MOVED, { type: "image_url", image_url: { url: PNG }, ...mark }] },
    ])
    expect((await call("badPng", claude)).modelMessages).toEqual([{ ...tool(`see bad${OMITTED}`), ...mark }])
  })

  test("venice: a result with audio keeps its text, and a user message gives the audio; any other file fails the run", async () => {
    // Observed with `--provider venice-ai-sdk-provider` (and image and PDF input).
    const venice = { npm: "venice-ai-sdk-provider", providerID: "venice", modelID: "mock-model" }
    const audio = { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } }
    const toolResult = (text: string) => ({ role: "user", content: [{ type: "text", text }, audio] })
    expect((await call("audio", venice)).modelMessages).toEqual([
      tool("see audio"),
      toolResult("[Tool Result: call_1]\nsee audio"),
    ])
    // No text: a newline in the tool message, the heading alone.
    expect((await call("emptyAudio", venice)).modelMessages).toEqual([tool("\n"), toolResult("[Tool Result: call_1]")])
    // Moved images follow in opencode's own user message, as with openai-compatible.
    expect((await call("audioAndPng", venice)).modelMessages).toEqual([
      tool("see both"),
      toolResult("[Tool Result: call_1]\nsee both"),
      { role: "user", content: [MOVED, cannotRead('"dot.png"', "image")] },
    ])
    expect((await call("audioAndPng", venice, ["image"])).modelMessages?.[2]).toEqual({
      role: "user",
      content: [MOVED, { type: "image_url", image_url: { url: PNG } }],
    })
    // Without a file sent as data, the tool message alone, as openai-compatible writes it.
    expect((await call("httpsText", venice)).modelMessages).toEqual([tool('[{"type":"text","text":"see http"}]')])
    expect((await call("notFile", venice)).modelMessages).toEqual([tool("see other")])
    // A text file (or JSON, the first such file) in the result, or a PDF the model reads, fails it.
    for (const [which, mime, input] of [
      ["text", "text/plain", []],
      ["otherFiles", "application/json", []],
      ["pdfNoName", "application/pdf", ["image", "pdf"]],
    ] as const) {
      const refused = await call(which, venice, [...input])
      expect(refused.modelMessages, which).toBeNull()
      expect(refused.modelRequestError, which).toBe(`'file part media type ${mime}' functionality not supported.`)
    }
    // Other audio types name their format (wav when not known); a video is a data URL.
    expect((await call("audioTypes", venice)).modelMessages?.[1]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "[Tool Result: call_1]\nsee sounds" },
        { type: "input_audio", input_audio: { data: "SUQz", format: "mp3" } },
        { type: "input_audio", input_audio: { data: "ZkxhQw==", format: "flac" } },
        { type: "input_audio", input_audio: { data: "AAAA", format: "wav" } },
      ],
    })
    const video = { type: "video_url", video_url: { url: "data:video/mp4;base64,AAAAIGZ0eXA=" } }
    expect((await call("video", venice)).modelMessages).toEqual([
      tool("see video"),
      { role: "user", content: [{ type: "text", text: "[Tool Result: call_1]\nsee video" }, video] },
    ])
  })

  test("venice with a claude id: caching marks on the last part of a message whose content becomes a list of parts", async () => {
    // Observed with `--provider venice-ai-sdk-provider --model claude-x` (and image input).
    const claude = { npm: "venice-ai-sdk-provider", providerID: "venice", modelID: "claude-x" }
    const mark = { cache_control: { type: "ephemeral" } }
    // No file in the result: the tool message is marked, its content one text part.
    expect((await call("notFile", claude)).modelMessages).toEqual([
      { role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "see other", ...mark }] },
    ])
    // Audio: the tool message stays text, the user message after it carries the mark.
    expect((await call("audio", claude)).modelMessages).toEqual([
      tool("see audio"),
      {
        role: "user",
        content: [
          { type: "text", text: "[Tool Result: call_1]\nsee audio" },
          { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" }, ...mark },
        ],
      },
    ])
    // A moved image: both the tool message and opencode's user message are marked.
    expect((await call("png", claude, ["image"])).modelMessages).toEqual([
      { role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "see png", ...mark }] },
      { role: "user", content: [MOVED, { type: "image_url", image_url: { url: PNG }, ...mark }] },
    ])
    // A text file still fails the request.
    expect((await call("text", claude)).modelRequestError).toBe(
      "'file part media type text/plain' functionality not supported.",
    )
  })

  test("github-copilot sends gpt-5 and later (but gpt-5-mini) to its responses API, not modelled: null", async () => {
    const copilot = (modelID: string) => ({ npm: "@ai-sdk/github-copilot", providerID: "github-copilot", modelID })
    for (const modelID of ["gpt-5", "gpt-5.1-codex", "gpt-6"])
      expect((await call("text", copilot(modelID))).modelMessages, modelID).toBeNull()
    for (const modelID of ["gpt-5-mini", "gpt-4.1", "claude-sonnet-4"])
      expect((await call("text", copilot(modelID))).modelMessages, modelID).not.toBeNull()
    // Another provider id on the same package keeps chat completions (observed: e2e's `mock` with `gpt-5`).
    const other = { npm: "@ai-sdk/github-copilot", providerID: "mock", modelID: "gpt-5" }
    expect((await call("text", other)).modelMessages).not.toBeNull()
  })

  test("alibaba: always marked for caching, the tool message's content one text part; a PDF the model reads fails", async () => {
    // Observed with `--provider @ai-sdk/alibaba`.
    const alibaba = { npm: "@ai-sdk/alibaba", providerID: "alibaba", modelID: "qwen3-coder-plus" }
    const mark = { cache_control: { type: "ephemeral" } }
    expect((await call("text", alibaba)).modelMessages).toEqual([
      {
        role: "tool",
        tool_call_id: "call_1",
        content: [
          {
            type: "text",
            text: '[{"type":"text","text":"see text"},{"type":"file-data","data":"aGVsbG8=","mediaType":"text/plain"}]',
            ...mark,
          },
        ],
      },
    ])
    expect((await call("pngNoName", alibaba, ["image", "pdf"])).modelMessages).toEqual([
      { role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "see png", ...mark }] },
      { role: "user", content: [MOVED, { type: "image_url", image_url: { url: PNG }, ...mark }] },
    ])
    const pdf = await call("pdfNoName", alibaba, ["image", "pdf"])
    expect(pdf.modelMessages).toBeNull()
    expect(pdf.modelRequestError).toBe("'Only image file parts are supported' functionality not supported.")
  })

  test("amazon-bedrock-mantle keeps images and PDFs in the tool message", async () => {
    expect((await call("several", model("@ai-sdk/amazon-bedrock/mantle"))).modelMessages).toEqual([
      tool(severalKept({ pdf: true })),
    ])
  })

  test("azure: the responses API, with images and PDFs moved to a user message of input parts", async () => {
    const azure = model("@ai-sdk/azure")
    expect((await call("pdfNoName", azure, ["image", "pdf"])).modelMessages).toEqual([
      { type: "function_call_output", call_id: "call_1", output: "see pdf" },
      {
        role: "user",
        content: [
          { type: "input_text", text: MOVED.text },
          { type: "input_file", filename: "part-1.pdf", file_data: PDF },
        ],
      },
    ])
    expect((await call("png", azure)).modelMessages).toEqual([
      { type: "function_call_output", call_id: "call_1", output: "see png" },
      {
        role: "user",
        content: [
          { type: "input_text", text: MOVED.text },
          { type: "input_text", text: cannotRead('"dot.png"', "image").text },
        ],
      },
    ])
  })
})
