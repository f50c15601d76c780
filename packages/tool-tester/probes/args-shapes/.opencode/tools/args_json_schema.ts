// args given as a whole JSON Schema: properties becomes one required arg, type is dropped

export default {
  description: "args given as a whole JSON Schema: properties becomes one required arg, type is dropped",
  args: { type: "object", properties: { a: { type: "string" } } },
  async execute(args: unknown) {
    return `args: ${JSON.stringify(args)}`
  },
}
