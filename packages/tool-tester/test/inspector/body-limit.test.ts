// The inspector reads at most MAX_BODY_BYTES of a request: a 100 MB body made the server hold it
// all (872 MB RSS) before it answered. Over the limit is a 413 with a one-line reason, and no call.
import { expect, test } from "vitest"
import { createInspectorApp, MAX_BODY_BYTES } from "../../src/inspector/app.ts"

import { fakeInspectorSession } from "../support/fake-inspector-session.ts"

const token = "t0k3n"
const port = 4983
const { session, calls } = fakeInspectorSession()
const app = createInspectorApp({ session, assets: new Map(), token, port: () => port })

function post(body: string, headers: Record<string, string> = {}) {
  return app.request(`http://127.0.0.1:${port}/${token}/api/call`, {
    method: "POST",
    body,
    headers: {
      host: `127.0.0.1:${port}`,
      origin: `http://127.0.0.1:${port}`,
      "content-type": "application/json",
      ...headers,
    },
  })
}

const oversized = JSON.stringify({ name: "greet", form: "args", args: { text: "x".repeat(MAX_BODY_BYTES) } })

test("a body over the limit is refused with 413 and a reason, whether or not it says its length", async () => {
  for (const headers of [{}, { "content-length": String(Buffer.byteLength(oversized)) }]) {
    const answer = await post(oversized, headers)
    expect(answer.status).toBe(413)
    const { error } = (await answer.json()) as { error: { code: string; message: string } }
    expect(error.code).toBe("USAGE")
    expect(error.message).toContain("request body is over 4 MiB")
  }
  expect(calls).toEqual([])
})

test("a body within the limit is read and called", async () => {
  const fits = JSON.stringify({ name: "greet", form: "args", args: { text: "x".repeat(MAX_BODY_BYTES - 100) } })
  expect((await post(fits)).status).toBe(200)
  expect(calls).toHaveLength(1)
})
