// The client a plugin gets when no server can answer: no opencode binary, or one whose server
// does not start. Each call rejects with CLIENT_UNAVAILABLE naming the method and what to do.
import { writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, onTestFinished, test, vi } from "vitest"
import { createProjectClient } from "../../src/client/project-client.ts"
import { useTmpDir } from "../helpers.ts"
import { serversHidden, serversIn } from "../support/servers.ts"

type Client = { app: { log(options: unknown): Promise<unknown> } }

describe("a client with no server behind it", () => {
  test("without an opencode binary, a call rejects with CLIENT_UNAVAILABLE naming the method and the fix", async () => {
    const project = createProjectClient({
      directory: process.cwd(),
      source: { kind: "unavailable", reason: "no opencode binary was found (project, tool-tester or PATH)" },
    })
    await expect((project.client as Client).app.log({ body: {} })).rejects.toMatchObject({
      code: "CLIENT_UNAVAILABLE",
      message:
        "input.client.app.log() needs an opencode server, and no opencode binary was found (project, tool-tester or PATH): install opencode in the project (npm i -D opencode-ai) or on PATH, or test this part with tool-tester e2e",
    })
    expect(project.started).toBe(false)
  })

  test("a binary whose server ends before it listens: CLIENT_UNAVAILABLE with what it printed, no hang", async () => {
    // Node is no opencode: `node serve ...` fails at once, saying it cannot find the module `serve`.
    const project = createProjectClient({
      directory: process.cwd(),
      source: { kind: "server", binary: process.execPath, env: process.env },
    })
    onTestFinished(() => project.stop())
    const call = (project.client as Client).app.log({ body: {} })
    await expect(call).rejects.toMatchObject({ code: "CLIENT_UNAVAILABLE" })
    await expect(call).rejects.toThrow(
      /^the opencode server behind input\.client did not start: opencode serve ended before it listened \(exit 1\): .*Cannot find module/,
    )
  }, 60_000)
})

describe("a client stopped while its server starts", () => {
  test.skipIf(serversHidden !== undefined)(
    `ends the server then, not once it is up, and the call rejects saying the project was closed (${serversHidden ?? "here"})`,
    async () => {
      // A server that never says it listens: node, blocked for good by a preload before `serve`.
      const directory = useTmpDir("tool-tester-starting-")
      const hang = path.join(directory, "hang.cjs")
      writeFileSync(hang, "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)\n")
      const project = createProjectClient({
        directory,
        source: {
          kind: "server",
          binary: process.execPath,
          env: { ...process.env, NODE_OPTIONS: `--require ${JSON.stringify(hang)}` },
        },
      })
      onTestFinished(() => project.stop())
      const call = (project.client as Client).app.log({ body: {} })
      call.catch(() => {})
      await vi.waitFor(() => expect(serversIn(directory)).toHaveLength(1), { timeout: 60_000, interval: 50 })
      project.stop()
      // Killed by stop() itself: gone as soon as the system has torn it down. Left to come up, as
      // before, it would have run until its 120 s start bound.
      await vi.waitFor(() => expect(serversIn(directory)).toEqual([]), { timeout: 60_000, interval: 50 })
      await expect(call).rejects.toMatchObject({
        code: "CLIENT_UNAVAILABLE",
        message: expect.stringContaining("the project was closed"),
      })
      // A call after stop() starts no server again.
      await expect((project.client as Client).app.log({ body: {} })).rejects.toMatchObject({
        code: "CLIENT_UNAVAILABLE",
      })
      expect(serversIn(directory)).toEqual([])
    },
    120_000,
  )
})

describe("a client call awaited during init", () => {
  type InitClient = { provider: { list(): Promise<{ data: string }> }; config: { get(): Promise<{ data: string }> } }
  const stubbed = () =>
    createProjectClient({
      directory: process.cwd(),
      source: {
        kind: "stub",
        stub: {
          provider: { list: async () => ({ data: "providers" }) },
          config: { get: async () => ({ data: "config" }) },
        },
      },
    })

  test("by the plugin function itself hangs: the init fails and the call is named", async () => {
    const project = stubbed()
    const client = project.client as InitClient
    const outcome = await project.watchInit(async () => {
      await client.provider.list()
      return {}
    })
    expect(outcome).toMatchObject({ error: expect.objectContaining({ message: "awaited during init" }) })
    expect(project.hungOn).toBe("input.client.provider.list()")
  })

  test("by an async function the plugin started and left running (opencode-supermemory) is no hang: it gets the answer once init is over", async () => {
    const project = stubbed()
    const client = project.client as InitClient
    let initOver = false
    let seen = "nothing yet"
    const outcome = await project.watchInit(async () => {
      void (async () => {
        const answer = await client.provider.list()
        seen = `${initOver ? "after" : "during"} init: ${answer.data}`
      })()
      initOver = true
      return { hooks: true }
    })
    expect(outcome).toEqual({ value: { hooks: true } })
    expect(project.hungOn).toBeUndefined()
    await project.initCallsSettled()
    expect(seen).toBe("after init: providers")
  })

  // The next plugin's init starts at once, before the first one's call is judged. It may still run
  // when the call is judged (a timer), or end before (promise jobs only: the order a loaded machine
  // gave now and then, when initCallsSettled() returned before the awaiting function resumed).
  test.each([
    ["still runs then (a timer)", () => new Promise((resolve) => setTimeout(resolve, 10))],
    [
      "has ended by then (promise jobs only)",
      async () => {
        for (let turn = 0; turn < 100; turn++) await null
      },
    ],
  ])("is judged against the init that made it, not the next plugin's, which %s", async (_, nextInitWork) => {
    const project = stubbed()
    const client = project.client as InitClient
    let seen = "nothing yet"
    await project.watchInit(async () => {
      void (async () => {
        seen = (await client.config.get()).data
      })()
      return {}
    })
    const next = await project.watchInit(async () => {
      await nextInitWork()
      return {}
    })
    expect(next).toEqual({ value: {} })
    expect(project.hungOn).toBeUndefined()
    await project.initCallsSettled()
    expect(seen).toBe("config")
  })
})
