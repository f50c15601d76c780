// A plugin package loaded from a path in the config's plugin list, with options.
export const PkgPlugin = async (_input, options) => ({
  tool: {
    pkg_greet: {
      description: "Greets from a package",
      args: {},
      execute: async (args) => `${options?.greeting ?? "hello"} from pkg ${JSON.stringify(args)}`,
    },
  },
})
