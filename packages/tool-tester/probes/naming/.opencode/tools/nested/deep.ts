export default {
  description: "In a subfolder: ignored",
  args: {},
  async execute() {
    return "deep ran"
  },
}
