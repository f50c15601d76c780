// The inspector's guard and routes without a browser or a project: what a request must carry.
import { mkdirSync, writeFileSync } from "node:fs"
import path from "node:path"
import { expect, test } from "vitest"
import { createInspectorApp } from "../../src/inspector/app.ts"
import { watchProject, watchTargets } from "../../src/inspector/watch-project.ts"
import { useTmpDir } from "../helpers.ts"

import { fakeInspectorSession } from "../support/fake-inspector-session.ts"

const token = "t0k3n"
const port = 4983
const { session, calls } = fakeInspectorSession()
const index = { body: new TextEncoder().encode("<!doctype html>"), type: "text/html; charset=utf-8" }
const app = createInspectorApp({ session, assets: new Map([["index.html", index]]), token, port: () => port })

const get = (pathname: string, headers: Record<string, string> = {}) =>
  app.request(`http://127.0.0.1:${port}${pathname}`, { headers: { host: `127.0.0.1:${port}`, ...headers } })

test("the page and the API answer with the token, on 127.0.0.1 and localhost", async () => {
  expect((await get(`/${token}/`)).status).toBe(200)
  expect((await get(`/${token}/`)).headers.get("content-security-policy")).toContain("default-src 'self'")
  expect((await get(`/${token}/api/project`, { host: `localhost:${port}` })).status).toBe(200)
  expect((await get(`/${token}/api/project`, { origin: `http://localhost:${port}` })).status).toBe(200)
})

test("a request without the token, for another host or from another origin is refused", async () => {
  expect((await get("/")).status).toBe(403)
  expect((await get("/api/project")).status).toBe(403)
  expect((await get(`/${token}x/api/project`)).status).toBe(403)
  expect((await get(`/${token}/api/project`, { host: `evil.example:${port}` })).status).toBe(403)
  expect((await get(`/${token}/api/project`, { host: "127.0.0.1:1" })).status).toBe(403)
  expect((await get(`/${token}/api/project`, { origin: "http://evil.example" })).status).toBe(403)
  expect((await get(`/${token}/api/project`, { origin: `http://127.0.0.1:${port}.evil.example` })).status).toBe(403)
})

test("a call needs the inspector's own Origin; other files than the page's are not served", async () => {
  const body = JSON.stringify({ name: "greet", form: "args", args: {} })
  const post = (headers: Record<string, string>) =>
    app.request(`http://127.0.0.1:${port}/${token}/api/call`, {
      method: "POST",
      body,
      headers: { host: `127.0.0.1:${port}`, "content-type": "application/json", ...headers },
    })
  expect((await post({})).status).toBe(403)
  expect((await post({ origin: "http://evil.example" })).status).toBe(403)
  expect(calls).toEqual([])
  expect((await post({ origin: `http://127.0.0.1:${port}` })).status).toBe(200)
  expect(calls).toEqual([{ name: "greet", form: "args", args: {} }])
  expect((await get(`/${token}/package.json`)).status).toBe(404)
  // Dot segments (also written %2e%2e) resolve before routing: /package.json, without the token.
  expect((await get(`/${token}/assets/../../package.json`)).status).toBe(403)
  expect((await get(`/${token}/assets/%2e%2e/%2e%2e/package.json`)).status).toBe(403)
  expect((await get(`/${token}/assets/..%2f..%2fpackage.json`)).status).toBe(404)
})

test("the page's URL without its final slash is sent on to it, where the page's relative URLs keep the token", async () => {
  const answer = await get(`/${token}`)
  expect(answer.status).toBe(308)
  expect(answer.headers.get("location")).toBe(`/${token}/`)
})

test("a call body that is not JSON, or not a call, is refused with 400 and the shape a call has", async () => {
  const post = (body: string) =>
    app.request(`http://127.0.0.1:${port}/${token}/api/call`, {
      method: "POST",
      body,
      headers: { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, "content-type": "application/json" },
    })
  const before = calls.length
  for (const [body, start] of [
    ["{bad", "the request body is not JSON ("],
    ["", "the request body is not JSON ("],
    [JSON.stringify({ name: "greet", args: {} }), "not a call: "],
    [JSON.stringify({ name: "greet", form: "raw", text: 5 }), "not a call: "],
    // Arguments left out are not {}: the tool would get undefined, which no model sends.
    [JSON.stringify({ name: "greet", form: "args" }), "not a call: "],
    // The asking page's id is an id, not any text.
    [JSON.stringify({ name: "greet", form: "args", args: {}, page: "<b>a page</b>" }), "not a call: "],
    // A model: a provider tool-tester knows, a model id, known inputs once each.
    ...[
      { provider: "nope nope", modelID: "m", input: [] },
      { provider: "anthropic", modelID: "", input: [] },
      { provider: "anthropic", modelID: "m", input: ["images"] },
      { provider: "anthropic", modelID: "m", input: ["pdf", "pdf"] },
      { provider: "anthropic", modelID: "m" },
      "anthropic",
    ].map((model) => [JSON.stringify({ name: "greet", form: "args", args: {}, model }), "not a call: "] as const),
  ] as const) {
    const answer = await post(body)
    expect(answer.status).toBe(400)
    const { error } = (await answer.json()) as { error: { code: string; message: string } }
    expect(error.code).toBe("USAGE")
    expect(error.message.startsWith(start), error.message).toBe(true)
    expect(error.message).toContain('"form": "args"')
  }
  expect(calls.length).toBe(before)
  // A model tool-tester knows reaches the session as sent.
  const model = { provider: "bedrock", modelID: "anthropic.claude-x", input: ["image", "pdf"] }
  expect((await post(JSON.stringify({ name: "greet", form: "args", args: {}, model }))).status).toBe(200)
  expect(calls.at(-1)).toMatchObject({ name: "greet", model })
})

test("HEAD is answered as GET is, without an Origin: it changes nothing", async () => {
  const head = await app.request(`http://127.0.0.1:${port}/${token}/api/project`, {
    method: "HEAD",
    headers: { host: `127.0.0.1:${port}` },
  })
  expect(head.status).toBe(200)
  expect(await head.text()).toBe("")
})

test("a replay's body, optional, is refused with 400 when it is there and not JSON", async () => {
  const replay = (body: string) =>
    app.request(`http://127.0.0.1:${port}/${token}/api/history/1/replay`, {
      method: "POST",
      body,
      headers: { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, "content-type": "application/json" },
    })
  const refused = await replay("notjson")
  expect(refused.status).toBe(400)
  const { error } = (await refused.json()) as { error: { code: string; message: string } }
  expect(error.code).toBe("USAGE")
  expect(error.message).toMatch(/^the request body is not JSON \(.*\): "page", when given, is the asking page's id/)
  // No body at all is still a replay (of a call the fake session does not have: 404).
  expect((await replay("")).status).toBe(404)
})

test("the events of a page that names itself with something other than an id are refused with 400", async () => {
  const answer = await get(`/${token}/api/events?page=${encodeURIComponent("<b>a page</b>")}`)
  expect(answer.status).toBe(400)
  const { error } = (await answer.json()) as { error: { code: string; message: string } }
  expect(error).toEqual({
    code: "USAGE",
    message: 'not a page: "page", when given, is the asking page\'s id: 1 to 64 letters, digits, "_" or "-"',
  })
})

test("the watcher reports a saved tool file, and not a README in the project folder", async () => {
  const directory = useTmpDir()
  const tools = path.join(directory, ".opencode", "tools")
  mkdirSync(tools, { recursive: true })
  const targets = watchTargets({
    directory,
    configDirectories: [{ path: path.join(directory, ".opencode"), kind: "project" }],
    configFiles: [],
  })
  const reported: string[][] = []
  let stop: () => void = () => undefined
  const first = new Promise<void>((resolve) => {
    stop = watchProject(targets, (files) => {
      reported.push(files)
      resolve()
    }).stop
  })
  writeFileSync(path.join(directory, "README.md"), "# notes")
  writeFileSync(path.join(tools, "echo.ts"), "export {}")
  await first
  stop()
  expect(reported.flat()).toEqual([path.join(tools, "echo.ts")])
})
