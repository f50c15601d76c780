import path from "node:path"
import { tool } from "@opencode-ai/plugin"

// Uses Bun's API, as many real tools do: opencode runs tools in Bun, and so does tool-tester's
// bun engine. Under the node engine `doctor` reports BUN_API for this file.
export default tool({
  description: "Count the lines and words of a file in the project",
  args: {
    file: tool.schema.string().describe("The file, relative to the project"),
  },
  async execute(args, context) {
    const file = path.resolve(context.directory, args.file)
    const text = await Bun.file(file).text()
    const [words] = (await Bun.$`wc -w ${file}`.text()).trim().split(/\s+/)
    return `${args.file}: ${text.split("\n").length - 1} lines, ${words} words`
  },
})
