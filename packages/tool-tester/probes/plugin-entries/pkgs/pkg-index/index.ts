// No "main", "module" or exports: opencode loads index.ts in the folder
// (docs/opencode-contract.md#plugin-entries).
export const IndexPlugin = async () => ({
  tool: {
    index_tool: { description: "From a package with only index.ts", args: {}, execute: async () => "index.ts entry" },
  },
})
