import type { Plugin } from "@opencode-ai/plugin"

// A plugin whose config hook chooses the default agent (and defines it when asked), as published
// plugins that bring their own agents do.
export const SetAgent: Plugin = async (_input, options) => ({
  async config(config) {
    const record = config as Record<string, unknown>
    const name = String(options?.["agent"])
    if (options?.["throw"] === true) throw new Error("config hook failed")
    if (options?.["define"] === true) {
      const agents = (record["agent"] ?? {}) as Record<string, unknown>
      agents[name] = { mode: "primary", description: "an agent a plugin defines" }
      record["agent"] = agents
    }
    record["default_agent"] = name
  },
})
