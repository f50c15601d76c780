// Only exports["."] (no "main"), with index.js in the folder: skipped or loaded? (without an index
// file such a package was seen skipped: docs/opencode-contract.md#plugin-entries)
export const ExportsIndexPlugin = async () => ({
  tool: {
    exports_index_tool: {
      description: "From a package with only exports['.'] and index.js",
      args: {},
      execute: async () => "exports['.'] entry",
    },
  },
})
