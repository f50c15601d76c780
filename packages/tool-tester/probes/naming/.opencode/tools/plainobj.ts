// No tool() helper: any object with args, description and execute counts.
export default {
  description: "A plain object tool",
  args: {},
  async execute() {
    return "plainobj ran"
  },
}
