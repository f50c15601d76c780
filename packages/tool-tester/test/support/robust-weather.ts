// A weather tool that checks its argument and never crashes: what fuzz should find no failure in.
export const robustWeather = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Weather",
  args: { city: tool.schema.string() },
  async execute(args) {
    if (typeof args.city !== "string") throw new Error("city must be a string")
    return "weather in " + args.city.slice(0, 50)
  },
})
`
