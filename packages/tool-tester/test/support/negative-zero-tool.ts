// A tool file that tells -0 from 0: a model's JSON can hold -0, and opencode hands it to the tool as
// it is (docs/opencode-contract.md: "-0 stays -0"). It throws a RangeError for -0 and answers
// `n=<n>` otherwise; the CLI's and the library's -0 tests both run it.
export const negativeZeroTool = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Refuses -0",
  args: { n: tool.schema.number() },
  async execute(args) {
    if (Object.is(args.n, -0)) throw new RangeError("got -0")
    return "n=" + args.n
  },
})
`
