// no args key at all: opencode does not take the export as a tool

export default {
  description: "no args key at all: opencode does not take the export as a tool",
  async execute(args: unknown) {
    return `args: ${JSON.stringify(args)}`
  },
}
