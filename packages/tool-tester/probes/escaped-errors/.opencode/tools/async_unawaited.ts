import { tool } from "@opencode-ai/plugin"

async function fail(): Promise<void> {
  throw new Error("thrown by an async function nobody awaited")
}

export default tool({
  description: "Calls an async function that throws without awaiting it, then returns",
  args: {},
  async execute() {
    fail()
    return "returned after an unawaited async throw"
  },
})
