// A plugin module: registers a tool through the `tool` hook and watches every tool call.
import type { Hooks, Plugin, PluginInput } from "@opencode-ai/plugin"
import { tool } from "@opencode-ai/plugin"

export const GreeterPlugin: Plugin = async (input: PluginInput, options) => {
  const greeting = typeof options?.["greeting"] === "string" ? options["greeting"] : "Hello"
  const hooks: Hooks = {
    tool: {
      greet: tool({
        description: "Greets someone",
        args: { name: tool.schema.string() },
        async execute(args) {
          return `${greeting}, ${args.name} from ${input.directory}`
        },
      }),
    },
    "tool.execute.before": async (call, output) => {
      if (call.tool === "read" && String(output.args.filePath).endsWith(".env"))
        throw new Error("Do not read .env files")
    },
    "tool.execute.after": async (_call, output) => {
      output.title = output.title || "done"
    },
    "tool.definition": async (definition, output) => {
      if (definition.toolID === "greet") output.description += " (politely)"
    },
  }
  return hooks
}
