// What the model receives for results with attachments: the real opencode's next request, as e2e's
// mock model recorded it, beside tool-tester's `modelMessages` for the same calls
// (docs/opencode-contract.md#attachments). Per provider API and model input: chat completions for a
// model without image or PDF input and for one with both, the responses API, Anthropic's messages
// API, and Google's generateContent for a gemini-2.5 id (without and with image and PDF input), a
// gemini-3 id and an id with gemini-3 inside, and Bedrock's Converse; the chat completions of the
// other packages (groq, mistral, openrouter, vercel, github-copilot, alibaba, venice, ...) as each writes them;
// the AI SDK's own prompt, which @ai-sdk/gateway sends; and Cohere's chat, with the documents it
// adds to the request. Each call is compared with the request that followed
// it, the one `modelMessages` describes (Anthropic's marks the last message of a request for
// caching).
import { afterAll, describe, expect, test } from "vitest"
import { carriedResult } from "../../src/e2e/carried-result.ts"
import type { ModelModality } from "../../src/index.ts"
import { closeProject, loadTools, runTool } from "../../src/index.ts"
import { fixture } from "../helpers.ts"
import { useLoadedFixture } from "../support/loaded-fixture.ts"
import {
  renamedConfig,
  type ScriptedSessions,
  type SessionRun,
  startScriptedSessions,
} from "../support/scripted-sessions.ts"
import { leftoverFolders, makeTempParent } from "./leftovers.ts"

const directory = fixture("attachments")
const tempParent = makeTempParent()
const loaded = useLoadedFixture("attachments")
afterAll(() => tempParent.remove())

/** opencode config giving the mock provider's model image and PDF input. */
const imageAndPdfFor = (model: string) => ({
  provider: {
    mock: { models: { [model]: { modalities: { input: ["text", "image", "pdf"], output: ["text"] } } } },
  },
})
const imageAndPdf = imageAndPdfFor("mock-model")

/** A setup whose model reads images (not PDFs): what runTool is told, and opencode's config saying so. */
const readsImages = (model = "mock-model") => ({
  modelInput: ["image"] as ModelModality[],
  config: {
    provider: { mock: { models: { [model]: { modalities: { input: ["text", "image"], output: ["text"] } } } } },
  },
})

/** A setup whose model reads images and PDFs: what runTool is told, and opencode's config saying so. */
const readsImagesAndPdfs = (model = "mock-model") => ({
  modelInput: ["image", "pdf"] as ModelModality[],
  config: imageAndPdfFor(model),
})

const setups: Array<{
  name: string
  npm: string
  /** The model id (default mock-model). */
  model?: string
  modelInput: ModelModality[]
  /** The provider's config, as `provider.mock` (renamed for the server: scripted-sessions.ts). */
  config?: Record<string, unknown>
  cases: string[]
}> = [
  {
    name: "openai-compatible, no image or PDF input",
    npm: "@ai-sdk/openai-compatible",
    modelInput: [],
    // sources: file parts with a `source`, some refused; hook*: an after hook replaces the list.
    cases: ["text", "png", "several", "badPng", "httpsImage", "notFile", "sources", "hookReplaces", "hookNotList"],
  },
  {
    name: "openai-compatible, image and PDF input",
    npm: "@ai-sdk/openai-compatible",
    ...readsImagesAndPdfs(),
    // noisy: over 2000 pixels wide, and its PNG over 5 MiB of base64 text once scaled: a JPEG.
    cases: ["several", "pdfNoName", "noisy"],
  },
  {
    // An Anthropic model behind an OpenAI-compatible API: opencode marks the last two messages for caching.
    name: "openai-compatible, a claude model id, image and PDF input",
    npm: "@ai-sdk/openai-compatible",
    model: "claude-x",
    ...readsImagesAndPdfs("claude-x"),
    cases: ["text", "several", "badPng"],
  },
  {
    // Chat completions, images kept in the result whatever the model's input.
    name: "xai (chat completions), no image or PDF input",
    npm: "@ai-sdk/xai",
    modelInput: [],
    cases: ["several", "text", "png", "badPng", "emptyOutput"],
  },
  { name: "openai (responses API)", npm: "@ai-sdk/openai", modelInput: [], cases: ["several", "httpsText"] },
  {
    name: "anthropic (messages API), no image or PDF input",
    npm: "@ai-sdk/anthropic",
    modelInput: [],
    cases: [
      "text",
      "png",
      "pdfNoName",
      "several",
      "otherFiles",
      "badPng",
      "httpsText",
      "emptyOutput",
      "notFile",
      "badJpeg",
      // Over 2000 pixels wide or tall: scaled to fit, as PNGs.
      "wide",
      "tall",
    ],
  },
  {
    // The whole request is cached instead: no mark on the result.
    name: "anthropic (messages API), the model's options set cacheControl",
    npm: "@ai-sdk/anthropic",
    modelInput: [],
    config: { provider: { mock: { models: { "mock-model": { options: { cacheControl: { type: "ephemeral" } } } } } } },
    cases: ["several", "text"],
  },
  {
    // Claude on Vertex AI: the messages API behind Google Cloud's sign-in.
    name: "google-vertex/anthropic (messages API), a claude model id, no image or PDF input",
    npm: "@ai-sdk/google-vertex/anthropic",
    model: "claude-x",
    modelInput: [],
    cases: ["text", "png", "pdfNoName", "several", "otherFiles", "badPng", "emptyOutput", "notFile", "plainDataUrl"],
  },
  {
    // The model's options set cacheControl: the whole request is cached, no mark on the result.
    name: "google-vertex/anthropic (messages API), the model's options set cacheControl, image and PDF input",
    npm: "@ai-sdk/google-vertex/anthropic",
    model: "claude-x",
    modelInput: ["image", "pdf"],
    config: {
      provider: {
        mock: {
          models: {
            "claude-x": {
              modalities: { input: ["text", "image", "pdf"], output: ["text"] },
              options: { cacheControl: { type: "ephemeral" } },
            },
          },
        },
      },
    },
    cases: ["several", "text"],
  },
  {
    name: "anthropic (messages API), image and PDF input",
    npm: "@ai-sdk/anthropic",
    ...readsImagesAndPdfs(),
    cases: ["several"],
  },
  {
    name: "google (generateContent), gemini-2.5, no image or PDF input",
    npm: "@ai-sdk/google",
    model: "gemini-2.5-pro",
    modelInput: [],
    cases: ["text", "png", "pdfNoName", "several", "otherFiles", "emptyOutput", "badPng", "httpsText", "notFile"],
  },
  {
    name: "google (generateContent), gemini-2.5, image and PDF input",
    npm: "@ai-sdk/google",
    model: "gemini-2.5-pro",
    ...readsImagesAndPdfs("gemini-2.5-pro"),
    cases: ["several", "pngNoName"],
  },
  {
    name: "google (generateContent), gemini-3",
    npm: "@ai-sdk/google",
    model: "gemini-3-pro-preview",
    modelInput: [],
    cases: ["several", "emptyOutput", "plainDataUrl", "badPng"],
  },
  {
    name: "google (generateContent), an id with gemini-3 inside, not first",
    npm: "@ai-sdk/google",
    model: "preview-gemini-3-pro",
    modelInput: [],
    cases: ["several", "emptyOutput"],
  },
  {
    // Chat completions as @ai-sdk/mistral writes them: the tool named, moved files as URL strings.
    name: "mistral (chat completions), image and PDF input",
    npm: "@ai-sdk/mistral",
    ...readsImagesAndPdfs(),
    cases: ["several", "pdfNoName", "text", "emptyOutput"],
  },
  {
    // The tool message's content as a list of parts, files as `file` parts.
    name: "openrouter (chat completions), no image or PDF input",
    npm: "@openrouter/ai-sdk-provider",
    modelInput: [],
    cases: ["text", "several", "emptyOutput", "plainDataUrl", "badPng"],
  },
  {
    name: "openrouter (chat completions), image and PDF input",
    npm: "@openrouter/ai-sdk-provider",
    ...readsImagesAndPdfs(),
    cases: ["several", "pdfNoName"],
  },
  {
    name: "groq (chat completions), no image or PDF input",
    npm: "@ai-sdk/groq",
    modelInput: [],
    cases: ["several", "png"],
  },
  {
    // A PDF with PDF input fails the request (the refused cases below).
    name: "groq (chat completions), image input",
    npm: "@ai-sdk/groq",
    ...readsImagesAndPdfs(),
    cases: ["pngNoName", "text"],
  },
  // Built on @ai-sdk/openai-compatible: its form.
  ...["@ai-sdk/cerebras", "@ai-sdk/togetherai", "@ai-sdk/deepinfra"].map((npm) => ({
    name: `${npm} (chat completions as openai-compatible), image and PDF input`,
    npm,
    ...readsImagesAndPdfs(),
    cases: ["several"],
  })),
  {
    // openai-compatible's form; a claude model id: caching marks.
    name: "vercel (chat completions as openai-compatible), a claude model id, image and PDF input",
    npm: "@ai-sdk/vercel",
    model: "claude-x",
    ...readsImagesAndPdfs("claude-x"),
    cases: ["text", "several", "pdfNoName", "badPng"],
  },
  {
    name: "github-copilot (chat completions), no image or PDF input",
    npm: "@ai-sdk/github-copilot",
    modelInput: [],
    cases: ["text", "png", "several", "badPng", "emptyOutput", "plainDataUrl"],
  },
  {
    // Its caching marks are copilot_cache_control.
    name: "github-copilot (chat completions), a claude model id, image and PDF input",
    npm: "@ai-sdk/github-copilot",
    model: "claude-x",
    ...readsImagesAndPdfs("claude-x"),
    cases: ["pngNoName", "text", "badPng"],
  },
  {
    // Always marked for caching; the tool message's content is a list of one text part.
    name: "alibaba (chat completions), image input",
    npm: "@ai-sdk/alibaba",
    ...readsImages(),
    cases: ["text", "several", "pngNoName", "emptyOutput"],
  },
  {
    // The AI SDK's own prompt: a tool-result part, the moved files as file parts.
    name: "gateway (the AI SDK's prompt), no image or PDF input",
    npm: "@ai-sdk/gateway",
    modelInput: [],
    cases: ["text", "png", "several", "notFile", "emptyOutput", "httpsText", "plainDataUrl", "otherFiles", "badPng"],
  },
  {
    // A claude id: no caching marks through the gateway.
    name: "gateway (the AI SDK's prompt), a claude model id, image and PDF input",
    npm: "@ai-sdk/gateway",
    model: "anthropic/claude-sonnet-4",
    ...readsImagesAndPdfs("anthropic/claude-sonnet-4"),
    cases: ["several", "pdfNoName", "pngNoName", "text"],
  },
  {
    // Takes images and PDFs in the result, as image-data and file-data parts of the tool message.
    name: "amazon-bedrock-mantle (chat completions), no image or PDF input",
    npm: "@ai-sdk/amazon-bedrock/mantle",
    modelInput: [],
    cases: ["png", "several", "pdfNoName"],
  },
  {
    // The responses API, with images and PDFs moved to a user message.
    name: "azure (responses API), no image or PDF input",
    npm: "@ai-sdk/azure",
    modelInput: [],
    cases: ["several", "emptyOutput"],
  },
  {
    name: "azure (responses API), image and PDF input",
    npm: "@ai-sdk/azure",
    ...readsImagesAndPdfs(),
    cases: ["several", "pdfNoName", "pngNoName"],
  },
  {
    // Converse: one user message, the result's files as documents named document-N, moved files after it.
    name: "amazon-bedrock (Converse), no image or PDF input",
    npm: "@ai-sdk/amazon-bedrock",
    modelInput: [],
    cases: ["text", "png", "pdfNoName", "several", "badPng", "httpsText", "emptyOutput", "notFile", "plainDataUrl"],
  },
  {
    name: "amazon-bedrock (Converse), image and PDF input",
    npm: "@ai-sdk/amazon-bedrock",
    ...readsImagesAndPdfs(),
    cases: ["several", "pdfNoName", "pdfDotted", "pngNoName"],
  },
  {
    // An Anthropic model: images stay in the result, and opencode's cache points follow it.
    name: "amazon-bedrock (Converse), an anthropic. model id, image and PDF input",
    npm: "@ai-sdk/amazon-bedrock",
    model: "anthropic.claude-x",
    ...readsImagesAndPdfs("anthropic.claude-x"),
    cases: ["several", "png", "pdf", "text"],
  },
  {
    // A result with audio: its text in the tool message, and a user message with the audio after it.
    name: "venice (chat completions), no image or PDF input",
    npm: "venice-ai-sdk-provider",
    modelInput: [],
    cases: ["audio", "emptyAudio", "audioAndPng", "audioTypes", "video", "notFile", "httpsText", "badPng", "pdfNoName"],
  },
  {
    // A claude id: caching marks, on the last part of a message whose content becomes a list of parts.
    name: "venice (chat completions), a claude model id, no image or PDF input",
    npm: "venice-ai-sdk-provider",
    model: "claude-x",
    modelInput: [],
    cases: ["notFile", "audio", "audioTypes", "png", "badPng", "video"],
  },
  {
    name: "venice (chat completions), a claude model id, image input",
    npm: "venice-ai-sdk-provider",
    model: "claude-x",
    ...readsImages("claude-x"),
    cases: ["png", "audioAndPng", "pngNoName", "notFile"],
  },
  {
    name: "venice (chat completions), image input",
    npm: "venice-ai-sdk-provider",
    ...readsImages(),
    cases: ["png", "audioAndPng"],
  },
  {
    // Text contents: the result's parts as JSON text, moved files' errors in the user message's text.
    name: "cohere (Cohere's chat), no image or PDF input",
    npm: "@ai-sdk/cohere",
    modelInput: [],
    cases: ["text", "several", "badPng", "emptyOutput", "httpsText", "plainDataUrl", "otherFiles", "notFile"],
  },
  {
    // The files the model reads become the request's documents, their base64 data as text.
    name: "cohere (Cohere's chat), image and PDF input",
    npm: "@ai-sdk/cohere",
    ...readsImagesAndPdfs(),
    cases: ["several", "pdfNoName", "noisy", "text"],
  },
  {
    // The same route as google; a file of the result's own is inlineData and a sentence.
    name: "google-vertex (generateContent), gemini-2.5, no image or PDF input",
    npm: "@ai-sdk/google-vertex",
    model: "gemini-2.5-pro",
    modelInput: [],
    cases: ["text", "png", "pdfNoName", "several", "otherFiles", "emptyOutput", "badPng", "plainDataUrl"],
  },
  {
    name: "google-vertex (generateContent), gemini-3",
    npm: "@ai-sdk/google-vertex",
    model: "gemini-3-pro-preview",
    modelInput: [],
    cases: ["several", "otherFiles", "emptyOutput"],
  },
]

// Results the provider's package cannot write into the next request: opencode's run ends.
const refused: Array<{ name: string; npm: string; which: string; modelInput: ModelModality[] }> = [
  { name: "xai, a PDF the model reads", npm: "@ai-sdk/xai", which: "pdfNoName", modelInput: ["image", "pdf"] },
  { name: "amazon-bedrock, a JSON file", npm: "@ai-sdk/amazon-bedrock", which: "json", modelInput: [] },
  { name: "groq, a PDF the model reads", npm: "@ai-sdk/groq", which: "pdfNoName", modelInput: ["image", "pdf"] },
  {
    name: "github-copilot, a PDF the model reads",
    npm: "@ai-sdk/github-copilot",
    which: "pdfNoName",
    modelInput: ["image", "pdf"],
  },
  // Any file but audio (or video) in the result: the commonest, a text file.
  { name: "venice, a text file", npm: "venice-ai-sdk-provider", which: "text", modelInput: [] },
  {
    name: "alibaba, a PDF the model reads",
    npm: "@ai-sdk/alibaba",
    which: "pdfNoName",
    modelInput: ["image", "pdf"],
  },
]

// Every setup and refused case is a session of one opencode server, each provider setup pointed at
// a mock model of its own: started at the first test that needs it. (The image step under the
// config's attachment.image limits, which would take a server of its own, is pinned by
// test/attachments-image-limits.test.ts from what the binary sent; how Anthropic's messages carry
// the images, by the Anthropic setups here.)
const served = [
  ...setups.map((setup) => ({ ...setup, turns: setup.cases })),
  ...refused.map(({ npm, which, modelInput }) => ({
    npm,
    model: undefined,
    config: modelInput.length > 0 ? imageAndPdf : undefined,
    turns: [which],
  })),
]
let sessions: Promise<ScriptedSessions> | undefined
afterAll(async () => {
  await (await sessions?.catch(() => undefined))?.close()
  expect(leftoverFolders(tempParent.path)).toEqual([])
}, 120_000)

/** Runs served setup `index` as the server's session. */
async function runServed(index: number): Promise<SessionRun> {
  sessions ??= startScriptedSessions({
    directory,
    tempDirectory: tempParent.path,
    setups: served.map(({ npm, model, config, turns }) => {
      const calls = turns.map((which) => ({ calls: [{ tool: "attach", args: { case: which } }] }))
      return {
        npm,
        ...(model === undefined ? {} : { model }),
        ...(config === undefined ? {} : { config }),
        script: { turns: [...calls, { text: "done" }] },
      }
    }),
  })
  return (await sessions).run(index)
}

/** The project loaded with `config` (the model's options and input). */
function loadedWith(config: Record<string, unknown> | undefined) {
  return loadTools({ directory, global: false, ...(config === undefined ? {} : { config }), engine: "node" })
}

describe("attachments: tool-tester's modelMessages are what opencode's next request carries", () => {
  for (const [index, setup] of setups.entries())
    test(setup.name, { timeout: 300_000 }, async () => {
      const run = await runServed(index)
      expect(run.error).toBeUndefined()
      // Caching reads the model's options: a project loaded with the same config, its provider
      // renamed as in the server.
      const config = renamedConfig(setup.config, run.providerID)
      const project = config === undefined ? loaded.project : await loadedWith(config)
      const mains = run.requests.filter((request) => request.kind === "main")
      expect(mains).toHaveLength(setup.cases.length + 1)
      for (const [turn, which] of setup.cases.entries()) {
        const callID = `call_${turn + 1}`
        const model = { npm: setup.npm, providerID: run.providerID, modelID: setup.model ?? "mock-model" }
        const result = await runTool(
          project,
          "attach",
          { case: which },
          { model, modelInput: setup.modelInput, callID },
        )
        // Cohere's documents too; the other APIs add none (and tool-tester gives none).
        expect({ which, messages: result.modelMessages, documents: result.modelDocuments ?? [] }).toEqual({
          which,
          ...carriedResult(run.requests, { turn, id: callID }),
        })
      }
      if (project !== loaded.project) await closeProject(project)
    })

  test.for(refused.map((each, at) => ({ ...each, index: setups.length + at })))(
    "$name: opencode's run ends with the error modelRequestError gives",
    { timeout: 300_000 },
    async ({ npm, which, modelInput, index }) => {
      const run = await runServed(index)
      const project = await loadedWith(renamedConfig(served[index]!.config, run.providerID))
      const model = { npm, providerID: run.providerID, modelID: "mock-model" }
      const result = await runTool(project, "attach", { case: which }, { model, modelInput })
      await closeProject(project)
      expect(result.modelMessages).toBeNull()
      expect(result.modelRequestError).toEqual(expect.any(String))
      expect(run.error?.data?.message).toBe(result.modelRequestError)
      // The call ran; the request after it was never sent.
      expect(run.callStates).toEqual(["completed"])
      expect(run.requests.filter((request) => request.kind === "main")).toHaveLength(1)
    },
  )
})
