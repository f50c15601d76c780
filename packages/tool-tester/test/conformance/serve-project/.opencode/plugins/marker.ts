// A project plugin of the served project: its tool id shows, in `GET /experimental/tool/ids`, whether
// `opencode serve` loaded the project's plugins.
export const ServedMarker = async () => ({
  tool: {
    served_marker: {
      description: "Present when the server loaded the project's plugins",
      args: {},
      execute: async () => "served",
    },
  },
})
