// The entry named by "module" (no "main", no exports): opencode loads it
// (docs/opencode-contract.md#plugin-entries).
export const ModulePlugin = async (_input: unknown, options: unknown) => ({
  tool: {
    module_tool: {
      description: "From a package with only a module entry",
      args: {},
      execute: async () => `module entry, options ${JSON.stringify(options ?? null)}`,
    },
  },
})
