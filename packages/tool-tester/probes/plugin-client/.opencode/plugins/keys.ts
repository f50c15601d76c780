// Lists the client's keys during init (docs/opencode-contract.md#plugin-input: reading input.client
// during init is fine).
export const ClientKeys = async (input: { client: object }) => {
  const keys = Object.keys(input.client)
  return {
    tool: {
      client_keys: {
        description: "The keys of input.client, as listed during plugin init",
        args: {},
        execute: async () => keys.join(","),
      },
    },
  }
}
