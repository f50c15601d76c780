import type { Plugin } from "@opencode-ai/plugin"
import * as tools from "./__TOOL_NAME__.js"

/**
 * The plugin opencode loads: it registers the tools through the `tool` hook, each under the id
 * given here. Export nothing else from this file: opencode calls every export as a plugin.
 */
export const __PLUGIN_EXPORT__: Plugin = async () => ({
  tool: {
    // @tool-begin
    __TOOL_KEY__: tools.__EXPORT__,
    // @tool-end
  },
})
