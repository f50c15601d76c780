// Listed as the npm-style spec "file:./pkgs/pkg-file": opencode installs it like npm (a link to
// this folder, resolved against the project directory) and loads it as a package.
export const FilePlugin = async (input, options) => ({
  tool: {
    file_spec_tool: {
      description: "From a file: spec",
      args: {},
      execute: async () =>
        `${options?.greeting ?? "hello"} from a file: package in ${input.directory === process.cwd()}`,
    },
  },
})
