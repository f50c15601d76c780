import { EventEmitter } from "node:events"
import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "An EventEmitter with no error listener emits 'error' from a timer while execute runs",
  args: {},
  async execute() {
    const emitter = new EventEmitter()
    setTimeout(() => emitter.emit("error", new Error("emitted with no error listener")), 0)
    await new Promise((resolve) => setTimeout(resolve, 200))
    return "returned after an unheard error event"
  },
})
