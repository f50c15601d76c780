// A client stub for `loadTools({ client })` in one line, with vitest's mock functions: each method
// you name answers what you give (a value, resolved; or a function, called with the plugin's
// arguments), and records its calls, so a test can assert what the plugin asked opencode.
//   const client = mockClient({ app: { log: { data: true } } })
//   const project = await loadTools({ directory, client })
//   expect(client.app.log).toHaveBeenCalledWith({ body: expect.objectContaining({ level: "info" }) })
// A method left out rejects with CLIENT_METHOD_MISSING naming it (docs/fidelity.md#inputclient).
import { type Mock, vi } from "vitest"
import { CLIENT_NAMESPACES } from "../client/client-shape.ts"
import type { ClientStub } from "../types.ts"

/** What a test gives: per namespace, per method, the answer (or a function that makes it). */
export type ClientAnswers = { [namespace: string]: { [methodOrNested: string]: unknown } }

/** The stub: the same namespaces, each method a vitest mock. */
export type MockClient<T extends ClientAnswers> = {
  [N in keyof T]: { [M in keyof T[N]]: T[N][M] extends Record<string, unknown> ? MockedNested<T[N][M]> : Mock }
}
type MockedNested<T> = { [M in keyof T]: Mock } | Mock

export function mockClient<const T extends ClientAnswers>(answers: T): MockClient<T> & ClientStub {
  const client: Record<string, unknown> = {}
  for (const [name, methods] of Object.entries(answers)) {
    const nestedNames = Object.keys(CLIENT_NAMESPACES[name]?.nested ?? {})
    const namespace: Record<string, unknown> = {}
    for (const [method, answer] of Object.entries(methods)) {
      namespace[method] =
        nestedNames.includes(method) && isPlainObject(answer)
          ? Object.fromEntries(Object.entries(answer).map(([inner, value]) => [inner, mocked(value)]))
          : mocked(answer)
    }
    client[name] = namespace
  }
  return client as MockClient<T> & ClientStub
}

// --- internal ---

function mocked(answer: unknown): Mock {
  return typeof answer === "function" ? vi.fn(answer as (...args: unknown[]) => unknown) : vi.fn(async () => answer)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype
}
