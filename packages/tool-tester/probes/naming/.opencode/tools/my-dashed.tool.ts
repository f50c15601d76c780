import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Dashes and a dot in the file name",
  args: {},
  async execute() {
    return "my-dashed.tool ran"
  },
})
