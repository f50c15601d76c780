// A tool.definition hook that replaces `parameters` (opencode's own schema object) with a zod one.
import type { Plugin } from "@opencode-ai/plugin"
import { tool } from "@opencode-ai/plugin"

export const ReplacesParameters: Plugin = async () => ({
  "tool.definition": async (input, output) => {
    if (input.toolID === "greet") output.parameters = tool.schema.object({ name: tool.schema.string() })
  },
})
