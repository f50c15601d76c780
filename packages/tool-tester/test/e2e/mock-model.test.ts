import http from "node:http"
import { setTimeout as sleep } from "node:timers/promises"
import { crc32 } from "node:zlib"
import { afterEach, describe, expect, it } from "vitest"
import { type MockModel, startMockModel } from "../../src/e2e/mock-model.ts"

let mock: MockModel | undefined
afterEach(async () => {
  await mock?.close()
  mock = undefined
})

async function post(path: string, body: unknown): Promise<Array<Record<string, any>>> {
  return (await postFrames(path, body)).map((frame) => frame.data)
}

/** Each SSE frame's data and its `event:` line (undefined without one); `[DONE]` left out. */
async function postFrames(path: string, body: unknown): Promise<Array<{ event?: string; data: Record<string, any> }>> {
  const response = await fetch(`${mock?.baseURL}${path}`, { method: "POST", body: JSON.stringify(body) })
  const text = await response.text()
  return text
    .split("\n\n")
    .filter((frame) => frame !== "" && frame !== "data: [DONE]")
    .map((frame) => {
      const lines = frame.split("\n")
      const event = lines.find((line) => line.startsWith("event: "))?.slice("event: ".length)
      const data = JSON.parse(lines.find((line) => line.startsWith("data: "))!.slice("data: ".length))
      return event === undefined ? { data } : { event, data }
    })
}

const tools = [{ type: "function", function: { name: "x", description: "", parameters: {} } }]

describe("the mock model", () => {
  // opencode's fetch (Bun's) keeps a connection pooled for minutes and does not retry a POST sent
  // on one the server closes under it; Node's server closes an idle one after 5 s by default.
  it("keeps an idle connection open past Node's 5 s, so a request on it is never met by its close", {
    timeout: 60_000,
  }, async () => {
    mock = await startMockModel({ script: { turns: [] } })
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const request = () =>
      new Promise<number>((resolve, reject) => {
        const sent = http.request(`${mock!.baseURL}/chat/completions`, { method: "POST", agent }, (response) => {
          response.resume()
          response.on("end", () => resolve(sent.socket!.localPort!))
        })
        sent.on("error", reject)
        sent.end(JSON.stringify({ model: "m", stream: true, messages: [] }))
      })
    try {
      const first = await request()
      await sleep(6_500)
      // The same socket (its local port): the server did not close it while it sat idle.
      expect(await request()).toBe(first)
    } finally {
      agent.destroy()
    }
  })

  it("answers the title request with text without using a turn, then plays the turns in order", async () => {
    mock = await startMockModel({
      script: {
        turns: [
          {
            calls: [
              { tool: "x", args: { a: 1 } },
              { tool: "Y", rawArgs: "{oops" },
            ],
          },
          { text: "bye" },
        ],
      },
    })
    const title = await post("/chat/completions", { model: "m", stream: true, messages: [] })
    expect(title.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("")).toBe("Scripted session")

    const first = await post("/chat/completions", { model: "m", stream: true, messages: [], tools })
    const calls = first.flatMap((chunk) => chunk.choices[0]?.delta?.tool_calls ?? [])
    expect(calls).toEqual([
      { index: 0, id: "call_1", type: "function", function: { name: "x", arguments: '{"a":1}' } },
      { index: 1, id: "call_2", type: "function", function: { name: "Y", arguments: "{oops" } },
    ])
    // The usage rides on the chunk that finishes; every chunk has one choice whose delta names its
    // role (@ai-sdk/mistral and @ai-sdk/perplexity refuse a stream without them).
    expect(first.at(-1)?.choices[0]?.finish_reason).toBe("tool_calls")
    expect(first.at(-1)?.usage).toBeDefined()
    for (const chunk of [...title, ...first]) {
      expect(chunk.choices).toHaveLength(1)
      expect(chunk.choices[0].delta.role).toBe("assistant")
    }
    expect(mock.pendingCalls().map((call) => call.id)).toEqual(["call_1", "call_2"])

    const second = await post("/chat/completions", { model: "m", stream: true, messages: [], tools })
    expect(second.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("")).toBe("bye")
    expect(mock.pendingCalls()).toEqual([])

    const after = await post("/chat/completions", { model: "m", stream: true, messages: [], tools })
    expect(after.at(-1)?.choices[0]?.finish_reason).toBe("stop")
    expect(mock.requests.map((request) => request.kind)).toEqual(["title", "main", "main", "main"])
    expect(mock.servedCalls.map((call) => [call.turn, call.name])).toEqual([
      [0, "x"],
      [0, "Y"],
    ])
  })

  it("with a title model, tells the title request by the model each API names, and plays a turn for a main request without tools", async () => {
    mock = await startMockModel({
      script: { turns: [{ text: "one" }, { text: "two" }, { text: "three" }, { text: "four" }, { text: "five" }] },
      titleModel: "m-title",
    })
    const send = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${mock!.baseURL}${path}`, { method: "POST", headers, body: JSON.stringify(body) }).then((response) =>
        response.arrayBuffer(),
      )
    const gateway = (model: string) => ({
      "ai-language-model-specification-version": "3",
      "ai-language-model-id": model,
      "ai-language-model-streaming": "false",
    })
    // The body's `model` (chat completions, responses, messages, Cohere's chat).
    await send("/chat/completions", { model: "m-title", stream: true, messages: [] })
    await send("/chat/completions", { model: "m", stream: true, messages: [] })
    await send("/messages", { model: "m-title", stream: true, messages: [], tools: [] })
    // The path (Google's, Bedrock's, Claude on Vertex AI's), the gateway's header.
    await send("/models/m-title:streamGenerateContent?alt=sse", { contents: [] })
    await send("/models/m:streamGenerateContent?alt=sse", { contents: [] })
    await send("/model/m-title/converse-stream", { messages: [] })
    await send("/model/m/converse-stream", { messages: [] })
    await send("/m-title:streamRawPredict", { anthropic_version: "vertex-2023-10-16" })
    await send("/language-model", { prompt: [] }, gateway("m-title"))
    await send("/language-model", { prompt: [] }, gateway("m"))
    expect(mock.requests.map((request) => [request.path, request.kind])).toEqual([
      ["/v1/chat/completions", "title"],
      ["/v1/chat/completions", "main"],
      ["/v1/messages", "title"],
      ["/v1/models/m-title:streamGenerateContent", "title"],
      ["/v1/models/m:streamGenerateContent", "main"],
      ["/v1/model/m-title/converse-stream", "title"],
      ["/v1/model/m/converse-stream", "main"],
      ["/v1/m-title:streamRawPredict", "title"],
      ["/v1/language-model", "title"],
      ["/v1/language-model", "main"],
    ])
  })

  it("speaks the Responses API with function_call items", async () => {
    mock = await startMockModel({ script: { turns: [{ calls: [{ tool: "x", args: {}, id: "c9" }] }] } })
    const events = await post("/responses", { model: "gpt-5", stream: true, input: [], tools })
    const done = events.find((event) => event.type === "response.output_item.done")
    expect(done?.item).toMatchObject({ type: "function_call", call_id: "c9", name: "x", arguments: "{}" })
    expect(events.at(-1)?.type).toBe("response.completed")
  })

  it("speaks Anthropic's messages API: a text block, tool_use blocks with their argument text, the stop reason", async () => {
    mock = await startMockModel({
      script: {
        turns: [
          {
            text: "calling",
            calls: [
              { tool: "x", args: { a: 1 }, id: "toolu_1" },
              { tool: "Y", rawArgs: "{oops" },
            ],
          },
          { text: "bye" },
        ],
      },
    })
    const anthropicTools = [{ name: "x", description: "", input_schema: {} }]
    const title = await post("/messages", { model: "m", stream: true, messages: [] })
    expect(title.filter((event) => event.type === "content_block_delta").map((event) => event.delta.text)).toEqual([
      "Scripted session",
    ])

    const frames = await postFrames("/messages", {
      model: "claude-x",
      stream: true,
      messages: [],
      tools: anthropicTools,
    })
    // Every frame names its event as Anthropic's stream does, the same as its data's type.
    for (const frame of frames) expect(frame.event).toBe(frame.data.type)
    const events = frames.map((frame) => frame.data)
    expect(events.map((event) => [event.type, event.index])).toEqual([
      ["message_start", undefined],
      ["content_block_start", 0],
      ["content_block_delta", 0],
      ["content_block_stop", 0],
      ["content_block_start", 1],
      ["content_block_delta", 1],
      ["content_block_stop", 1],
      ["content_block_start", 2],
      ["content_block_delta", 2],
      ["content_block_stop", 2],
      ["message_delta", undefined],
      ["message_stop", undefined],
    ])
    expect(events[0]?.message).toMatchObject({ role: "assistant", model: "claude-x", content: [] })
    expect(events[2]?.delta).toEqual({ type: "text_delta", text: "calling" })
    expect(events[4]?.content_block).toEqual({ type: "tool_use", id: "toolu_1", name: "x", input: {} })
    expect(events[5]?.delta).toEqual({ type: "input_json_delta", partial_json: '{"a":1}' })
    expect(events[7]?.content_block).toEqual({ type: "tool_use", id: "call_1", name: "Y", input: {} })
    expect(events[8]?.delta).toEqual({ type: "input_json_delta", partial_json: "{oops" })
    expect(events[10]?.delta.stop_reason).toBe("tool_use")
    expect(mock.pendingCalls().map((call) => call.id)).toEqual(["toolu_1", "call_1"])

    const whole = (await (
      await fetch(`${mock.baseURL}/messages`, {
        method: "POST",
        body: JSON.stringify({ model: "m", stream: false, messages: [], tools: anthropicTools }),
      })
    ).json()) as Record<string, any>
    expect(whole).toMatchObject({ type: "message", role: "assistant", stop_reason: "end_turn" })
    expect(whole.content).toEqual([{ type: "text", text: "bye" }])
    expect(mock.requests.map((request) => [request.path, request.kind])).toEqual([
      ["/v1/messages", "title"],
      ["/v1/messages", "main"],
      ["/v1/messages", "main"],
    ])
  })

  it("speaks Google's generateContent: text, then functionCall parts whose args are objects, STOP", async () => {
    mock = await startMockModel({
      script: {
        turns: [
          {
            text: "calling",
            calls: [
              { tool: "x", args: { a: 1 } },
              { tool: "Y", rawArgs: '{ "b" : [1, 2] }' },
              { tool: "z", rawArgs: "" },
              { tool: "w", rawArgs: "{oops" },
              { tool: "v", rawArgs: "[1]" },
            ],
          },
          { calls: [{ tool: "x" }] },
        ],
      },
    })
    const googleTools = [{ functionDeclarations: [{ name: "x", description: "", parameters: {} }] }]
    const title = await post("/models/gemini-2.5-pro:streamGenerateContent?alt=sse", { contents: [] })
    expect(title.map((chunk) => chunk.candidates[0].content.parts)).toEqual([[{ text: "Scripted session" }]])

    const chunks = await post("/models/gemini-2.5-pro:streamGenerateContent?alt=sse", {
      contents: [],
      tools: googleTools,
    })
    expect(chunks.map((chunk) => chunk.candidates[0].content)).toEqual([
      { role: "model", parts: [{ text: "calling" }] },
      {
        role: "model",
        parts: [
          { functionCall: { name: "x", args: { a: 1 } } },
          { functionCall: { name: "Y", args: { b: [1, 2] } } },
          { functionCall: { name: "z", args: {} } },
          // Not a JSON object: Google would never send it; @ai-sdk/google takes a string as the text.
          { functionCall: { name: "w", args: "{oops" } },
          { functionCall: { name: "v", args: "[1]" } },
        ],
      },
    ])
    // Only the last chunk finishes, with STOP (Google's reason for calls too), and has the usage.
    expect(chunks.map((chunk) => [chunk.candidates[0].finishReason, chunk.usageMetadata === undefined])).toEqual([
      [undefined, true],
      ["STOP", false],
    ])
    expect(chunks[0]?.modelVersion).toBe("gemini-2.5-pro")
    // The calls carry no id: the mock's names for them; the arguments as opencode will get them.
    expect(mock.pendingCalls().map((call) => [call.id, call.arguments])).toEqual([
      ["call_1", '{"a":1}'],
      ["call_2", '{"b":[1,2]}'],
      ["call_3", "{}"],
      ["call_4", "{oops"],
      ["call_5", "[1]"],
    ])

    // `:generateContent` answers whole, whatever the body says.
    const whole = (await (
      await fetch(`${mock.baseURL}/models/gemini-3-pro-preview:generateContent`, {
        method: "POST",
        body: JSON.stringify({ contents: [], tools: googleTools, stream: true }),
      })
    ).json()) as Record<string, any>
    expect(whole).toMatchObject({ modelVersion: "gemini-3-pro-preview", usageMetadata: { totalTokenCount: 15 } })
    expect(whole.candidates).toEqual([
      {
        content: { role: "model", parts: [{ functionCall: { name: "x", args: {} } }] },
        finishReason: "STOP",
        index: 0,
      },
    ])
    expect(mock.requests.map((request) => [request.path, request.kind])).toEqual([
      ["/v1/models/gemini-2.5-pro:streamGenerateContent", "title"],
      ["/v1/models/gemini-2.5-pro:streamGenerateContent", "main"],
      ["/v1/models/gemini-3-pro-preview:generateContent", "main"],
    ])
  })

  it("speaks Bedrock's Converse: an event stream of frames, text then toolUse blocks, tool_use", async () => {
    mock = await startMockModel({
      script: {
        turns: [
          {
            text: "calling",
            calls: [
              { tool: "x", args: { a: 1 } },
              { tool: "y", rawArgs: "{oops", id: "tu_1" },
            ],
          },
          { calls: [{ tool: "x" }] },
        ],
      },
    })
    const bedrockTools = { tools: [{ toolSpec: { name: "x", inputSchema: { json: {} } } }] }
    const converse = async (path: string, body: unknown) => {
      const response = await fetch(`${mock!.baseURL}${path}`, { method: "POST", body: JSON.stringify(body) })
      return { type: response.headers.get("content-type"), bytes: new Uint8Array(await response.arrayBuffer()) }
    }
    const title = await converse("/model/mock-model/converse-stream", { messages: [] })
    expect(title.type).toBe("application/vnd.amazon.eventstream")
    expect(eventStream(title.bytes).map((event) => event.type)).toEqual([
      "messageStart",
      "contentBlockDelta",
      "contentBlockStop",
      "messageStop",
      "metadata",
    ])
    const main = eventStream((await converse("/model/mock-model/converse-stream", { toolConfig: bedrockTools })).bytes)
    expect(main.map(({ type, payload }) => ({ [type]: payload }))).toEqual([
      { messageStart: { role: "assistant" } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: "calling" } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { contentBlockStart: { contentBlockIndex: 1, start: { toolUse: { toolUseId: "call_1", name: "x" } } } },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: '{"a":1}' } } } },
      { contentBlockStop: { contentBlockIndex: 1 } },
      { contentBlockStart: { contentBlockIndex: 2, start: { toolUse: { toolUseId: "tu_1", name: "y" } } } },
      { contentBlockDelta: { contentBlockIndex: 2, delta: { toolUse: { input: "{oops" } } } },
      { contentBlockStop: { contentBlockIndex: 2 } },
      { messageStop: { stopReason: "tool_use" } },
      { metadata: { usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, metrics: { latencyMs: 1 } } },
    ])
    // `/converse` answers whole: the calls' input as JSON values; a model id as the path gives it.
    const whole = await converse("/model/anthropic.claude%3A0/converse", { toolConfig: bedrockTools })
    expect(JSON.parse(new TextDecoder().decode(whole.bytes))).toMatchObject({
      output: { message: { role: "assistant", content: [{ toolUse: { toolUseId: "call_2", name: "x", input: {} } }] } },
      stopReason: "tool_use",
    })
    expect(mock.requests.map((request) => [request.path, request.kind])).toEqual([
      ["/v1/model/mock-model/converse-stream", "title"],
      ["/v1/model/mock-model/converse-stream", "main"],
      ["/v1/model/anthropic.claude%3A0/converse", "main"],
    ])
  })

  it("speaks the AI Gateway's language model: the AI SDK's stream parts, the model and streaming from headers", async () => {
    mock = await startMockModel({
      script: { turns: [{ text: "on it", calls: [{ tool: "x", args: { a: 1 } }] }] },
    })
    const gatewayTools = [{ type: "function", name: "x", inputSchema: {} }]
    const headers = (streaming: boolean) => ({
      "ai-language-model-specification-version": "3",
      "ai-language-model-id": "openai/gpt-x",
      "ai-language-model-streaming": String(streaming),
    })
    const streamed = await fetch(`${mock.baseURL}/language-model`, {
      method: "POST",
      headers: headers(true),
      body: JSON.stringify({ prompt: [], tools: gatewayTools }),
    })
    const parts = (await streamed.text())
      .split("\n\n")
      .filter((frame) => frame !== "")
      .map((frame) => JSON.parse(frame.slice("data: ".length)))
    expect(parts.map((part) => part.type)).toEqual([
      "stream-start",
      "response-metadata",
      "text-start",
      "text-delta",
      "text-end",
      "tool-call",
      "finish",
    ])
    expect(parts[1]).toMatchObject({ modelId: "openai/gpt-x" })
    expect(parts[3]).toMatchObject({ delta: "on it" })
    expect(parts[5]).toEqual({ type: "tool-call", toolCallId: "call_1", toolName: "x", input: '{"a":1}' })
    expect(parts[6]).toMatchObject({ finishReason: { unified: "tool-calls", raw: "tool-calls" } })
    // Whole when the header says so: the same content in one body.
    const whole = await fetch(`${mock.baseURL}/language-model`, {
      method: "POST",
      headers: headers(false),
      body: JSON.stringify({ prompt: [] }),
    })
    expect(await whole.json()).toMatchObject({
      content: [{ type: "text", text: "Scripted session" }],
      finishReason: { unified: "stop" },
    })
    expect(mock.requests.map((request) => [request.path, request.kind])).toEqual([
      ["/v1/language-model", "main"],
      ["/v1/language-model", "title"],
    ])
  })

  it("answers Claude on Vertex AI: its sign-in, unrecorded, then Anthropic's messages at the model's raw predict", async () => {
    mock = await startMockModel({ script: { turns: [{ calls: [{ tool: "x", args: {} }] }] } })
    const subject = await fetch(`${mock.baseURL}/sts/subject-token`)
    expect(await subject.text()).toBe("tool-tester-mock-subject")
    const token = await fetch(`${mock.baseURL}/sts/token`, { method: "POST", body: "grant_type=x" })
    expect(await token.json()).toMatchObject({ access_token: "tool-tester-mock-token", token_type: "Bearer" })
    const frames = await postFrames("/claude-x:streamRawPredict", {
      anthropic_version: "vertex-2023-10-16",
      tools: [{ name: "x", input_schema: {} }],
    })
    expect(frames[0]).toMatchObject({ event: "message_start", data: { message: { model: "claude-x" } } })
    expect(frames.map((frame) => frame.event)).toContain("content_block_start")
    expect(mock.requests.map((request) => [request.path, request.kind])).toEqual([
      ["/v1/claude-x:streamRawPredict", "main"],
    ])
    expect(mock.unrouted).toEqual([])
  })

  it("speaks Cohere's chat: named events, a text block, one call at a time, TOOL_CALL; whole without `stream`", async () => {
    mock = await startMockModel({
      script: {
        turns: [
          {
            text: "on it",
            calls: [
              { tool: "x", args: { a: 1 } },
              { tool: "y", rawArgs: "" },
            ],
          },
        ],
      },
    })
    const frames = await postFrames("/chat", { model: "command-x", messages: [], tools, stream: true })
    expect(frames.map((frame) => frame.event)).toEqual([
      "message-start",
      "content-start",
      "content-delta",
      "content-end",
      "tool-call-start",
      "tool-call-delta",
      "tool-call-end",
      "tool-call-start",
      "tool-call-delta",
      "tool-call-end",
      "message-end",
    ])
    // Each event's data names its own type, which is what @ai-sdk/cohere reads.
    expect(frames.every((frame) => frame.data.type === frame.event)).toBe(true)
    expect(frames[2]?.data).toMatchObject({ index: 0, delta: { message: { content: { text: "on it" } } } })
    expect(frames[4]?.data.delta.message.tool_calls).toEqual({
      id: "call_1",
      type: "function",
      function: { name: "x", arguments: "" },
    })
    expect(frames[5]?.data.delta.message.tool_calls).toEqual({ function: { arguments: '{"a":1}' } })
    expect(frames[8]?.data.delta.message.tool_calls).toEqual({ function: { arguments: "" } })
    expect(frames[10]?.data.delta).toMatchObject({
      finish_reason: "TOOL_CALL",
      usage: { tokens: { input_tokens: 10, output_tokens: 5 } },
    })
    // Cohere's whole requests carry no `stream`: the answer is one body.
    const whole = await fetch(`${mock.baseURL}/chat`, {
      method: "POST",
      body: JSON.stringify({ model: "command-x", messages: [] }),
    })
    expect(whole.headers.get("content-type")).toBe("application/json")
    expect(await whole.json()).toMatchObject({
      message: { role: "assistant", content: [{ type: "text", text: "Scripted session" }] },
      finish_reason: "COMPLETE",
      usage: { billed_units: { input_tokens: 10 }, tokens: { output_tokens: 5 } },
    })
    expect(mock.requests.map((request) => [request.path, request.kind])).toEqual([
      ["/v1/chat", "main"],
      ["/v1/chat", "title"],
    ])
  })

  it("answers unknown routes with 404 and records them (another provider's API)", async () => {
    mock = await startMockModel({ script: { turns: [] } })
    const response = await fetch(`${mock.baseURL}/models`)
    expect(response.status).toBe(404)
    const bedrock = await fetch(`${mock.baseURL}/model/m/invoke`, { method: "POST", body: "{}" })
    expect(bedrock.status).toBe(404)
    const google = await fetch(`${mock.baseURL}/models/m:countTokens`, { method: "POST", body: "{}" })
    expect(google.status).toBe(404)
    expect(mock.requests).toEqual([])
    expect(mock.unrouted).toEqual([
      { method: "GET", path: "/v1/models" },
      { method: "POST", path: "/v1/model/m/invoke" },
      { method: "POST", path: "/v1/models/m:countTokens" },
    ])
  })
})

/**
 * AWS's event stream read back, each frame checked: its lengths, both CRC-32s, and headers naming an
 * `event` with a JSON payload.
 */
function eventStream(bytes: Uint8Array): Array<{ type: string; payload: unknown }> {
  const events: Array<{ type: string; payload: unknown }> = []
  const buffer = Buffer.from(bytes)
  let offset = 0
  while (offset < buffer.length) {
    const total = buffer.readUInt32BE(offset)
    const headersLength = buffer.readUInt32BE(offset + 4)
    expect(buffer.readUInt32BE(offset + 8)).toBe(crc32(buffer.subarray(offset, offset + 8)))
    expect(buffer.readUInt32BE(offset + total - 4)).toBe(crc32(buffer.subarray(offset, offset + total - 4)))
    const headers: Record<string, string> = {}
    let at = offset + 12
    while (at < offset + 12 + headersLength) {
      const name = buffer.toString("utf8", at + 1, at + 1 + buffer[at]!)
      at += 1 + buffer[at]!
      expect(buffer[at]).toBe(7)
      const length = buffer.readUInt16BE(at + 1)
      headers[name] = buffer.toString("utf8", at + 3, at + 3 + length)
      at += 3 + length
    }
    expect(headers).toMatchObject({ ":message-type": "event", ":content-type": "application/json" })
    const payload = JSON.parse(buffer.toString("utf8", at, offset + total - 4))
    events.push({ type: headers[":event-type"]!, payload })
    offset += total
  }
  return events
}
