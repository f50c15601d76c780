// The docs' plain-object form: zod imported directly, no tool() helper.
import { z } from "zod"

export default {
  description: "Tool description",
  args: {
    param: z.string().describe("Parameter description"),
  },
  async execute(args: { param: string }, context: { sessionID: string }) {
    return `result ${args.param} ${context.sessionID}`
  },
}
