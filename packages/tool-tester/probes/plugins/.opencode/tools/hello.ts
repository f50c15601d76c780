import { tool } from "@opencode-ai/plugin"

export default tool({ description: "hello from a file", args: {}, execute: async () => "file hello" })
