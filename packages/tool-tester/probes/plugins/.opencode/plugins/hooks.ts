import type { Plugin } from "@opencode-ai/plugin"

export const Hooks: Plugin = async () => ({
  "tool.definition": async (input, output) => {
    if (input.toolID === "echo") output.description = "CHANGED by tool.definition"
  },
  "tool.execute.before": async (input, output) => {
    if (input.tool !== "echo") return
    output.args.x = "mutated-in-place"
    output.args.injected = true
    output.args = { replaced: "ignored" }
  },
  "tool.execute.after": async (input, output) => {
    if (input.tool !== "echo") return
    output.output += " [after-hook appended]"
    output.title = "title set by after"
    output.metadata.fromAfter = true
  },
})
