// Counts the session hooks opencode runs before the first tool call of a prompt, and what they get.
import type { Plugin } from "@opencode-ai/plugin"
import { tool } from "@opencode-ai/plugin"

export const Counter: Plugin = async () => {
  let transforms = 0
  let messages = 0
  let prompt = ""
  let systemKinds = ""
  return {
    "chat.message": async (_input, output) => {
      messages++
      const part = output.parts[0] as { type?: string; text?: string } | undefined
      // The text is left out: `opencode run` quotes a prompt with spaces; a test passes its own.
      prompt = `${output.message.role}:${part?.type}:${typeof part?.text}`
    },
    "experimental.chat.system.transform": async (_input, output) => {
      transforms++
      systemKinds = Array.isArray(output.system) ? "array" : typeof output.system
    },
    tool: {
      counts: tool({
        description: "Reports how often the session hooks ran before this call",
        args: {},
        async execute() {
          return `system.transform=${transforms} chat.message=${messages} prompt=${prompt} system=${systemKinds}`
        },
      }),
    },
  }
}
