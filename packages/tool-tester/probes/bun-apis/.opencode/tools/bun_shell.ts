import { tool } from "@opencode-ai/plugin"
import { $ } from "bun"

export default tool({
  description: "Runs a command with the shell imported from bun",
  args: {},
  async execute() {
    const text = await $`echo shell`.text()
    return JSON.stringify({ text })
  },
})
