// Destructures the client during init and reports what it got, from a tool.
export const ClientDestructure = async ({ client }: { client: Record<string, Record<string, unknown>> }) => {
  const { app, session, tui } = client
  const seen = [typeof app?.agents, typeof session?.prompt, typeof tui?.showToast, typeof tui?.control].join(",")
  return {
    tool: {
      client_destructured: {
        description: "What destructuring input.client during init gave",
        args: {},
        execute: async () => seen,
      },
    },
  }
}
