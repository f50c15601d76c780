// args given as a number: opencode takes it as no args

export default {
  description: "args given as a number: opencode takes it as no args",
  args: 42,
  async execute(args: unknown) {
    return `args: ${JSON.stringify(args)}`
  },
}
