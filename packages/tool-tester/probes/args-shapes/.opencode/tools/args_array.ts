// args given as an array: its items become args named by index, objects kept verbatim

export default {
  description: "args given as an array: its items become args named by index, objects kept verbatim",
  args: ["dropped", { type: "string" }],
  async execute(args: unknown) {
    return `args: ${JSON.stringify(args)}`
  },
}
