import type { Plugin } from "@opencode-ai/plugin"
import { tool } from "@opencode-ai/plugin"

// Tool hook keys are used as they are; a plugin key equal to a file tool's id replaces it.
export const Greet: Plugin = async (input) => ({
  tool: {
    "Plugin-Case.Name": tool({
      description: "A name with case and punctuation",
      args: { who: tool.schema.string().describe("who to greet") },
      execute: async (args) => `hello ${args.who}`,
    }),
    hello: tool({ description: "hello from a plugin", args: {}, execute: async () => "plugin hello" }),
    plain_obj: {
      description: "A plain object, no tool() helper",
      args: { n: tool.schema.number() },
      execute: async (args: unknown) => `plain got ${JSON.stringify(args)} in ${input.directory === process.cwd()}`,
    },
  },
})
