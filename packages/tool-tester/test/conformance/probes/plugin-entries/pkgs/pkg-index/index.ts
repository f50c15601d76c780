// No "main", "module" or exports: opencode loads index.ts in the folder (spec 14.1).
export const IndexPlugin = async () => ({
  tool: {
    index_tool: { description: "From a package with only index.ts", args: {}, execute: async () => "index.ts entry" },
  },
})
