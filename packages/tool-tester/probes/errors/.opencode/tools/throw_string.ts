import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Throws a string",
  args: {},
  async execute() {
    throw "a thrown string"
  },
})
