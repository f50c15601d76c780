export default {
  description: "A .tsx file: ignored",
  args: {},
  async execute() {
    return "tsx ran"
  },
}
