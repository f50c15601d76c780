// What the page shows when the server refuses a call: the server's reason, also when the refusal
// is the guard's plain text (a page left open from an earlier start of dev on the same port has a
// token that start no longer knows), not a JSON parse error. The page's module is imported by a
// path tsc does not follow, as in form-start-values.test.ts; its fetch goes to the real app.
import { afterEach, expect, test, vi } from "vitest"
import { createInspectorApp } from "../../src/inspector/app.ts"
import { fakeInspectorSession } from "../support/fake-inspector-session.ts"

const pageApi = "../../inspector-ui/src/api.ts"
const { api } = (await import(pageApi)) as {
  api: { call: (request: unknown) => Promise<unknown>; reload: () => Promise<unknown> }
}

const port = 4983
const { session, calls } = fakeInspectorSession()
const app = createInspectorApp({ session, assets: new Map(), token: "this-start", port: () => port })

/** The page's fetch, as the browser sends it from a page served under /<token>/. */
function pageAt(token: string) {
  const page = `http://127.0.0.1:${port}/${token}/`
  vi.stubGlobal("fetch", (relative: string, init: RequestInit) =>
    app.request(new URL(relative, page).href, {
      ...init,
      headers: {
        ...(init.headers as Record<string, string>),
        host: `127.0.0.1:${port}`,
        origin: `http://127.0.0.1:${port}`,
      },
    }),
  )
}

afterEach(() => {
  vi.unstubAllGlobals()
})

test("a page whose token this start does not know shows the guard's reason, not a JSON error", async () => {
  pageAt("an-earlier-start")
  await expect(api.call({ name: "greet", form: "args", args: {} })).rejects.toThrow(
    "refused: open the URL tool-tester dev printed (it carries this start's token)",
  )
  await expect(api.reload()).rejects.toThrow("refused: open the URL tool-tester dev printed")
  expect(calls).toEqual([])
})

test("a call the server refuses in JSON shows its message; one it answers is returned", async () => {
  pageAt("this-start")
  await expect(api.call({ name: "greet", form: "nope" })).rejects.toThrow(/^not a call: send /)
  await expect(api.call({ name: "greet", form: "args", args: {} })).resolves.toEqual({ id: 1 })
})
