// A save while a call runs: the reload ends the engine the call runs in, and the call says so,
// not that the tool exited or that its engine ran out of memory. Without a browser, so it runs
// where chromium is absent.
import { expect, test } from "vitest"
import { startedSession } from "./_inspector.ts"

const slow = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Waits",
  args: {},
  async execute() { await new Promise((resolve) => setTimeout(resolve, 3000)); return "done" },
})
`

test.each(["node", "bun"] as const)(
  "under the %s engine, a call a reload stopped is INTERRUPTED, naming the reload",
  {
    timeout: 120_000,
  },
  async (engine) => {
    const { session } = await startedSession({ ".opencode/tools/slow.ts": slow }, { engine })
    const running = session.call({ name: "slow", form: "args", args: {} })
    await new Promise((resolve) => setTimeout(resolve, 500))
    await session.reload()
    const stopped = await running
    expect(stopped.result).toBeUndefined()
    expect(stopped.error?.code).toBe("INTERRUPTED")
    expect(stopped.error?.message).toContain("a save reloaded the project while slow ran")
    // The reload's re-run of the same call, on the new load, runs to its end.
    expect(session.history().find((entry) => entry.trigger === "reload")?.result?.output).toBe("done")
  },
)
