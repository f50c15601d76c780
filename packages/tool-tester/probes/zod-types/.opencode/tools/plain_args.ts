// Args that are not zod schemas: opencode builds the schema without zod.
export default {
  description: "Args given as plain values instead of zod schemas",
  args: {
    flag: true,
    shape: { type: "string", description: "a JSON Schema written by hand" },
    list: ["dropped", "array"],
    label: "a string is dropped",
  },
  async execute(args: unknown) {
    return JSON.stringify(args)
  },
}
