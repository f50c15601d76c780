import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Echoes its arguments",
  args: { x: tool.schema.string(), n: tool.schema.number() },
  execute: async (args) => `echo ${JSON.stringify(args)}`,
})
