// The inspector's API answers each route in one method; any other gets 405 with an Allow header
// and a message naming the method (it was a bare 404 "not found", as if the route did not exist).
// A history id is digits, as the page writes it: `1e0`, `0x1` or `01` name no call.
import { expect, test } from "vitest"
import { createInspectorApp } from "../../src/inspector/app.ts"
import type { InspectorSession } from "../../src/inspector/session.ts"
import { fakeInspectorSession } from "../support/fake-inspector-session.ts"

const port = 4984
const token = "this-start"
const asked: number[] = []
const { session: fake } = fakeInspectorSession()
const session = {
  ...fake,
  savedOutput: (id: number) => {
    asked.push(id)
    return id === 1 ? "saved" : undefined
  },
} as unknown as InspectorSession
const app = createInspectorApp({ session, assets: new Map(), token, port: () => port })

function request(method: string, route: string) {
  return app.request(`http://127.0.0.1:${port}/${token}/api${route}`, {
    method,
    headers: { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` },
  })
}

test("a route asked in another method is 405, with the method it answers in Allow and in the message", async () => {
  for (const [method, route, allowed] of [
    ["GET", "/call", "POST"],
    ["PUT", "/call", "POST"],
    ["GET", "/reload", "POST"],
    ["GET", "/history/1/replay", "POST"],
    ["GET", "/history/1/cancel", "POST"],
    ["POST", "/project", "GET, HEAD"],
    ["DELETE", "/history", "GET, HEAD"],
    ["POST", "/history/1/output", "GET, HEAD"],
  ] as const) {
    const answer = await request(method, route)
    expect(answer.status, `${method} ${route}`).toBe(405)
    expect(answer.headers.get("allow")).toBe(allowed)
    expect(await answer.json()).toEqual({
      error: { code: "USAGE", message: `${method} is not allowed here: send ${allowed.split(",")[0]}` },
    })
  }
  // The right method still reaches the route, and a path that is no route stays a 404.
  expect((await request("GET", "/project")).status).toBe(200)
  expect((await request("GET", "/nothing")).status).toBe(404)
})

test("a history id is read only when written as the page writes it", async () => {
  asked.length = 0
  expect(await (await request("GET", "/history/1/output")).text()).toBe("saved")
  for (const id of ["1e0", "0x1", "01", "1.0", "%201"]) {
    expect((await request("GET", `/history/${id}/output`)).status, id).toBe(404)
  }
  // Only the well-written id reached the session as a call's id.
  expect(asked.filter((id) => !Number.isNaN(id))).toEqual([1])
})
