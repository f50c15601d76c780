import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Throws synchronously, before returning a promise",
  args: {},
  execute(): Promise<string> {
    throw new Error("sync boom")
  },
})
