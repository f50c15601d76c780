// args given as a boolean: opencode takes it as no args

export default {
  description: "args given as a boolean: opencode takes it as no args",
  args: true,
  async execute(args: unknown) {
    return `args: ${JSON.stringify(args)}`
  },
}
