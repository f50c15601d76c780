import path from "node:path"
import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Writes a file with Bun.write and reads it back with Bun.file",
  args: {},
  async execute(_args, context) {
    const file = path.join(context.directory, ".opencode/data/written.txt")
    const bytes = await Bun.write(file, "written by Bun.write\n")
    const back = await Bun.file(file).text()
    return JSON.stringify({ bytes, back })
  },
})
