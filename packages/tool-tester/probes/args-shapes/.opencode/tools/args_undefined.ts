// args given as undefined (the key is there): opencode takes it as no args

export default {
  description: "args given as undefined (the key is there): opencode takes it as no args",
  args: undefined,
  async execute(args: unknown) {
    return `args: ${JSON.stringify(args)}`
  },
}
