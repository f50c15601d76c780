// A non-function export rejects the whole module: never_offered must not exist.
export const PI = 3.14
export const Plugin = async () => ({
  tool: { never_offered: { description: "x", args: {}, execute: async () => "x" } },
})
