import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Waits with Bun.sleep(10), then returns",
  args: {},
  async execute() {
    const started = performance.now()
    const value = await Bun.sleep(10)
    const waited = performance.now() - started >= 5
    return `Bun.sleep(10) resolved with ${String(value)}; waited at least 5 ms: ${waited}`
  },
})
