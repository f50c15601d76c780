// args given as null: opencode takes it as no args

export default {
  description: "args given as null: opencode takes it as no args",
  args: null,
  async execute(args: unknown) {
    return `args: ${JSON.stringify(args)}`
  },
}
