// args given as an empty string: no characters, so opencode takes it as no args

export default {
  description: "args given as an empty string: no characters, so opencode takes it as no args",
  args: "",
  async execute(args: unknown) {
    return `args: ${JSON.stringify(args)}`
  },
}
