import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Returns an attachment holding a function, which opencode cannot structuredClone",
  args: {},
  async execute() {
    return { output: "x", attachments: [{ type: "file", mime: "text/plain", url: "data:,x", read: () => "x" }] }
  },
})
