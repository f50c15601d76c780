import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Throws a TypeError",
  args: {},
  async execute() {
    throw new TypeError("bad type inside")
  },
})
