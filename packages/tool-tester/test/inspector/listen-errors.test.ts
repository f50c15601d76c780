// `dev --port N` on a port it cannot listen on is a usage error that says what to do, not an
// "unexpected error" with a stack: one in use (taken here for real), or one below 1024 for a user
// without the rights (EACCES; the tests may run as root, so the server reports it as Node would).
import net from "node:net"
import { afterAll, beforeAll, expect, test, vi } from "vitest"
import { startInspector } from "../../src/inspector/server.ts"
import { useTmpDir } from "../helpers.ts"

const refuse = vi.hoisted(() => ({ code: undefined as string | undefined }))

vi.mock("@hono/node-server", async (importOriginal) => {
  const original = await importOriginal<typeof import("@hono/node-server")>()
  const { EventEmitter } = await import("node:events")
  return {
    ...original,
    serve: ((options: Parameters<typeof original.serve>[0], listening?: Parameters<typeof original.serve>[1]) => {
      if (refuse.code === undefined) return original.serve(options, listening)
      const server = new EventEmitter()
      const error = Object.assign(new Error(`listen ${refuse.code}: permission denied`), { code: refuse.code })
      queueMicrotask(() => server.emit("error", error))
      return server as unknown as ReturnType<typeof original.serve>
    }) as typeof original.serve,
  }
})

let taken: net.Server
beforeAll(async () => {
  taken = net.createServer()
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve))
})
afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())))

test("a port another program listens on is USAGE, naming the port and what to do", async () => {
  const port = (taken.address() as net.AddressInfo).port
  const directory = useTmpDir()
  await expect(startInspector({ directory, cwd: directory, port, watch: false })).rejects.toMatchObject({
    code: "USAGE",
    message: `port ${port} is in use: pass another --port, or leave it out for a free one`,
  })
})

test("a port the user may not listen on (EACCES, below 1024) is USAGE, naming the port and what to do", async () => {
  refuse.code = "EACCES"
  try {
    const directory = useTmpDir()
    await expect(startInspector({ directory, cwd: directory, port: 80, watch: false })).rejects.toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(/^port 80 is not open to your user .*: pass --port 1024 or above/),
    })
  } finally {
    refuse.code = undefined
  }
})
