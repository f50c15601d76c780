// args given as a string: opencode reads its characters as args and drops them

export default {
  description: "args given as a string: opencode reads its characters as args and drops them",
  args: "text",
  async execute(args: unknown) {
    return `args: ${JSON.stringify(args)}`
  },
}
