// Any new export added here becomes public API: it must exist in the real `@opencode-ai/plugin`
// with the same name and shape, because tool files import either one unchanged. The Bun shell
// types (shell.ts) are not exported: the real package exports none of them from any entry point,
// so a user names the shell `PluginInput["$"]`.

export { tool } from "./tool.js"
export type { ToolAttachment, ToolContext, ToolDefinition, ToolResult } from "./tool.js"
export type {
  AuthHook,
  AuthOAuthResult,
  AuthOuathResult,
  Config,
  Hooks,
  Plugin,
  PluginInput,
  PluginModule,
  PluginOptions,
  ProviderContext,
  ProviderHook,
  ProviderHookContext,
  WorkspaceAdapter,
  WorkspaceInfo,
  WorkspaceTarget,
} from "./plugin.js"
