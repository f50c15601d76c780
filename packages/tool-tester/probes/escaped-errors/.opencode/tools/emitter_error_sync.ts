import { EventEmitter } from "node:events"
import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "An EventEmitter with no error listener emits 'error' inside execute itself",
  args: {},
  async execute() {
    new EventEmitter().emit("error", new Error("emitted inside execute with no error listener"))
    return "not reached"
  },
})
