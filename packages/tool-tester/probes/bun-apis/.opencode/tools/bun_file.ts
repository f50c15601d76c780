import path from "node:path"
import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Reads files with Bun.file: text(), json() and exists()",
  args: {},
  async execute(_args, context) {
    const data = path.join(context.directory, ".opencode/data")
    const text = await Bun.file(path.join(data, "greeting.txt")).text()
    const json = await Bun.file(path.join(data, "config.json")).json()
    const exists = await Bun.file(path.join(data, "config.json")).exists()
    const missing = await Bun.file(path.join(data, "missing.txt")).exists()
    return JSON.stringify({ text, json, exists, missing })
  },
})
