export default {
  description: "An .mjs file: ignored",
  args: {},
  async execute() {
    return "mjs ran"
  },
}
