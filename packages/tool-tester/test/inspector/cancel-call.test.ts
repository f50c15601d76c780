// Cancelling a running call, without a browser (so it runs where chromium is absent): the call is in
// the history from its start, a cancel fires its abort signal (the tool's context.abort), a tool
// that ignores it (a busy loop) is stopped with its engine, the entry says the user cancelled it
// (never that the tool crashed or ran out of memory), and the next calls run.
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, onTestFinished, test } from "vitest"
import { createInspectorApp } from "../../src/inspector/app.ts"
import type { HistoryEntry, InspectorEvent, InspectorOptions } from "../../src/inspector/session.ts"
import { isRunning, killProcess } from "../support/processes.ts"
import { startedSession } from "./_inspector.ts"

/** Writes a marker once it runs (so the test knows it started), then keeps the thread busy. */
const spin = `import { writeFileSync } from "node:fs"
import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Spins",
  args: { marker: tool.schema.string() },
  async execute(args) {
    writeFileSync(args.marker, "started")
    for (;;) {}
  },
})
`

/** Waits until its abort signal fires, and says so. */
const waits = `import { writeFileSync } from "node:fs"
import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Waits for its abort signal",
  args: { marker: tool.schema.string() },
  async execute(args, context) {
    writeFileSync(args.marker, "started")
    if (context.abort.aborted) return "aborted before it began"
    await new Promise((resolve) => context.abort.addEventListener("abort", resolve, { once: true }))
    return "stopped on abort"
  },
})
`

/** Waits for a long time, ignoring its signal: a call that shares an engine with the busy loop. */
const sleeps = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Sleeps",
  args: {},
  async execute() { await new Promise((resolve) => setTimeout(resolve, 600_000)); return "woke" },
})
`

const hi = `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Says hi", args: {}, async execute() { return "hi" } })
`

const pid = `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Says its process", args: {}, async execute() { return String(process.pid) } })
`

/**
 * Ends its engine when called. Loads at once, but once hold-load is there (a new engine loading the
 * project again) writes that engine's process id to held and holds the load for 10 minutes.
 */
const exits = `import { existsSync, writeFileSync } from "node:fs"
import { tool } from "@opencode-ai/plugin"
if (existsSync(new URL("../../hold-load", import.meta.url))) {
  writeFileSync(new URL("../../held", import.meta.url), String(process.pid))
  await new Promise((resolve) => setTimeout(resolve, 600_000))
}
export default tool({ description: "Ends its engine", args: {}, async execute() { process.exit(0) } })
`

async function started(engine: "node" | "bun", options: Partial<InspectorOptions> = {}) {
  const { session, directory } = await startedSession(
    {
      ".opencode/tools/spin.ts": spin,
      ".opencode/tools/waits.ts": waits,
      ".opencode/tools/sleeps.ts": sleeps,
      ".opencode/tools/hi.ts": hi,
      ".opencode/tools/pid.ts": pid,
      ".opencode/tools/exits.ts": exits,
    },
    { engine, ...options },
  )
  const events: InspectorEvent[] = []
  session.subscribe((event) => events.push(event))
  return { session, events, directory, marker: (name: string) => path.join(directory, `${name}.started`) }
}

/** Resolves once the file exists (the tool wrote it): at most 60 s. */
async function appeared(file: string): Promise<void> {
  for (let waited = 0; !existsSync(file); waited += 50) {
    if (waited > 60_000) throw new Error(`${file} did not appear within 60 s`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const port = 4985
const token = "cancel-token"
function post(app: ReturnType<typeof createInspectorApp>, route: string, method = "POST") {
  return app.request(`http://127.0.0.1:${port}/${token}/api${route}`, {
    method,
    headers: { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` },
  })
}

describe.each(["node", "bun"] as const)("under the %s engine", { timeout: 180_000 }, (engine) => {
  test("a busy loop is cancelled through the API: its engine is ended, the entry says the user cancelled it, other calls run on", async () => {
    const { session, marker } = await started(engine)
    const app = createInspectorApp({ session, assets: new Map(), token, port: () => port })
    // A call that shares the engine with the loop, then the loop.
    const sleeping = session.call({ name: "sleeps", form: "args", args: {} })
    const spinning = session.call({ name: "spin", form: "args", args: { marker: marker("spin") } })
    await appeared(marker("spin"))

    const answer = await post(app, "/history/2/cancel")
    expect(answer.status).toBe(200)
    const cancelled = (await answer.json()) as HistoryEntry
    expect(cancelled).toMatchObject({ id: 2, error: { code: "INTERRUPTED" } })
    expect(cancelled.running).toBeUndefined()
    expect(cancelled.result).toBeUndefined()
    expect(cancelled.error?.message).toContain(
      "cancelled from the inspector: spin's abort signal (context.abort) fired",
    )
    expect(cancelled.error?.message).toContain("the engine it ran in was ended")
    expect(cancelled.error?.message).not.toMatch(/out of memory|SIGKILL|process\.exit/)
    expect(await spinning).toEqual(cancelled)
    // The call that shared the engine says why it stopped, too.
    const other = await sleeping
    expect(other.error?.code).toBe("INTERRUPTED")
    expect(other.error?.message).toContain("call #2 was cancelled")

    // The next calls get a new engine.
    expect((await session.call({ name: "hi", form: "args", args: {} })).result?.output).toBe("hi")
    expect((await session.call({ name: "hi", form: "args", args: {} })).result?.output).toBe("hi")
    // Once ended, a call cannot be cancelled: 409; a call that does not exist: 404.
    const late = await post(app, "/history/2/cancel")
    expect(late.status).toBe(409)
    expect(await late.json()).toEqual({ error: { code: "USAGE", message: "call 2 is not running: it has ended" } })
    for (const id of ["99", "2e0", "02", "0x2"]) expect((await post(app, `/history/${id}/cancel`)).status, id).toBe(404)
  })
})

test("a cancel fires the tool's context.abort; a tool that stops keeps what it returned; the call is in the history, by start, from its start", {
  timeout: 180_000,
}, async () => {
  // The tool stops on its signal: a long grace keeps the engine out of it, whatever the machine's load.
  const { session, events, marker } = await started("node", { cancelGraceMs: 600_000 })
  const waiting = session.call({ name: "waits", form: "args", args: { marker: marker("waits") } })
  // In the history, and sent to every page, as soon as it starts.
  expect(session.history()).toMatchObject([{ id: 1, running: true, request: { name: "waits" } }])
  expect(events).toMatchObject([{ type: "call", entry: { id: 1, running: true } }])
  await appeared(marker("waits"))
  // A later call that ends first does not move it: the history is in the order calls started.
  expect((await session.call({ name: "hi", form: "args", args: {} })).result?.output).toBe("hi")
  expect(session.history().map((entry) => [entry.id, entry.running ?? false])).toEqual([
    [1, true],
    [2, false],
  ])

  const cancelled = await session.cancel(1)
  expect(cancelled?.error?.code).toBe("INTERRUPTED")
  expect(cancelled?.error?.message).toMatch(
    /^cancelled from the inspector: waits's abort signal \(context\.abort\) fired and the tool stopped \d+ ms later/,
  )
  expect(cancelled?.result?.output).toBe("stopped on abort")
  expect(await waiting).toEqual(cancelled)
  // Every page saw it being cancelled, then how it ended; it kept its place.
  expect(
    events
      .filter((event) => event.type === "call" && event.entry.id === 1)
      .map(
        (event) =>
          event.type === "call" && (event.entry.cancelling ? "cancelling" : event.entry.running ? "running" : "ended"),
      ),
  ).toEqual(["running", "cancelling", "ended"])
  expect(session.history().map((entry) => entry.id)).toEqual([1, 2])
  expect(session.cancel(1)).toBeUndefined()
})

test("dev's --timeout: a tool that goes on past it, ignoring its abort signal, has its warm engine ended a second later; a cancel during the reload a call needs ends that load", {
  timeout: 180_000,
}, async () => {
  const { session, directory } = await started("bun", { timeoutMs: 300 })
  const pidOf = async () => Number((await session.call({ name: "pid", form: "args", args: {} })).result?.output)
  const engine = await pidOf()
  // sleeps awaits 10 minutes and ignores its signal: answered at the bound, it would go on in the engine.
  const slept = await session.call({ name: "sleeps", form: "args", args: {} })
  expect(slept.result?.error?.code).toBe("TOOL_TIMEOUT")
  await expect.poll(() => isRunning(engine), { timeout: 30_000 }).toBe(false)
  const next = await pidOf()
  expect(next).toBeGreaterThan(0)
  expect(next).not.toBe(engine)

  // A cancel while the project is loaded again for a call (the one before ended the engine) ends
  // that load with its engine at once, and says the tool was not called.
  expect((await session.call({ name: "exits", form: "args", args: {} })).result?.error?.code).toBe("TOOL_EXITED")
  writeFileSync(path.join(directory, "hold-load"), "")
  const calling = session.call({ name: "pid", form: "args", args: {} })
  await appeared(path.join(directory, "held"))
  const held = Number(readFileSync(path.join(directory, "held"), "utf8"))
  onTestFinished(() => killProcess(held))
  const running = session.history().find((entry) => entry.running)
  expect(running).toBeDefined()
  void session.cancel(running!.id)
  expect((await calling).error).toMatchObject({
    code: "INTERRUPTED",
    message: expect.stringContaining("pid was not called"),
  })
  await expect.poll(() => isRunning(held), { timeout: 30_000 }).toBe(false)
})
