import type { Plugin } from "@opencode-ai/plugin"

// Exports are visited in name order: a_ok keeps its hooks, b_throws and everything after it are dropped.
export const a_ok: Plugin = async () => ({
  tool: { thrower_a_ok: { description: "kept", args: {}, execute: async () => "a ok" } },
})
export const b_throws: Plugin = async () => {
  throw new Error("plugin init boom")
}
export const c_ok: Plugin = async () => ({
  tool: { thrower_c_ok: { description: "dropped", args: {}, execute: async () => "c ok" } },
})
