// Only exports["."] (no "main"), with index.js in the folder: skipped or loaded? (spec 12 saw it skipped)
export const ExportsIndexPlugin = async () => ({
  tool: {
    exports_index_tool: {
      description: "From a package with only exports['.'] and index.js",
      args: {},
      execute: async () => "exports['.'] entry",
    },
  },
})
