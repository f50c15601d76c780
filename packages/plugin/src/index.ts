// Any new export added here becomes public API: it must exist in the real `@opencode-ai/plugin`
// with the same name and shape, because tool files import either one unchanged.

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
export type {
  BunShell,
  BunShellError,
  BunShellOutput,
  BunShellPromise,
  ShellExpression,
  ShellFunction,
} from "./shell.js"
