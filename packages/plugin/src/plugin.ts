import type {
  Event,
  Message,
  Model,
  Part,
  Permission,
  Project,
  Provider,
  Config as SDKConfig,
  UserMessage,
  createOpencodeClient,
} from "@opencode-ai/sdk"
import type { Auth, Model as ModelV2, Provider as ProviderV2 } from "@opencode-ai/sdk/v2"
import type { BunShell } from "./shell.js"
import type { ToolDefinition } from "./tool.js"

// The plugin API of opencode 1.18: what a plugin module exports and the hooks it may return.
// SDK types come from the real `@opencode-ai/sdk`, as the real plugin package does.

export type ProviderContext = {
  source: "env" | "config" | "custom" | "api"
  info: Provider
  options: Record<string, any>
}

export type WorkspaceInfo = {
  id: string
  type: string
  name: string
  branch: string | null
  directory: string | null
  extra: unknown | null
  projectID: string
}

export type WorkspaceTarget =
  | { type: "local"; directory: string }
  | { type: "remote"; url: string | URL; headers?: HeadersInit }

export type WorkspaceAdapter = {
  name: string
  description: string
  configure(config: WorkspaceInfo): WorkspaceInfo | Promise<WorkspaceInfo>
  create(config: WorkspaceInfo, env: Record<string, string | undefined>, from?: WorkspaceInfo): Promise<void>
  remove(config: WorkspaceInfo): Promise<void>
  target(config: WorkspaceInfo): WorkspaceTarget | Promise<WorkspaceTarget>
}

/** The first argument opencode passes to a plugin function. */
export type PluginInput = {
  client: ReturnType<typeof createOpencodeClient>
  project: Project
  directory: string
  worktree: string
  experimental_workspace: {
    register(type: string, adapter: WorkspaceAdapter): void
  }
  serverUrl: URL
  $: BunShell
}

/** The options object of a `["spec", { ... }]` entry in the config's `plugin` list. */
export type PluginOptions = Record<string, unknown>

export type Config = Omit<SDKConfig, "plugin"> & {
  plugin?: Array<string | [string, PluginOptions]>
}

/** A plugin: called once when opencode starts, returns the hooks it registers. */
export type Plugin = (input: PluginInput, options?: PluginOptions) => Promise<Hooks>

/** The "v1" module shape: a default export with `server` (and `id`, required when loaded from a path). */
export type PluginModule = {
  id?: string
  server: Plugin
  tui?: never
}

type Rule = {
  key: string
  op: "eq" | "neq"
  value: string
}

type AuthPrompt =
  | {
      type: "text"
      key: string
      message: string
      placeholder?: string
      validate?: (value: string) => string | undefined
      /** @deprecated Use `when` instead */
      condition?: (inputs: Record<string, string>) => boolean
      when?: Rule
    }
  | {
      type: "select"
      key: string
      message: string
      options: Array<{ label: string; value: string; hint?: string }>
      /** @deprecated Use `when` instead */
      condition?: (inputs: Record<string, string>) => boolean
      when?: Rule
    }

export type AuthHook = {
  provider: string
  loader?: (auth: () => Promise<Auth>, provider: Provider) => Promise<Record<string, any>>
  methods: (
    | {
        type: "oauth"
        label: string
        prompts?: Array<AuthPrompt>
        authorize(inputs?: Record<string, string>): Promise<AuthOAuthResult>
      }
    | {
        type: "api"
        label: string
        prompts?: Array<AuthPrompt>
        authorize?(
          inputs?: Record<string, string>,
        ): Promise<
          { type: "success"; key: string; provider?: string; metadata?: Record<string, string> } | { type: "failed" }
        >
      }
  )[]
}

type AuthSuccess = { type: "success"; provider?: string } & (
  | { refresh: string; access: string; expires: number; accountId?: string; enterpriseUrl?: string }
  | { key: string; metadata?: Record<string, string> }
)

export type AuthOAuthResult = { url: string; instructions: string } & (
  | { method: "auto"; callback(): Promise<AuthSuccess | { type: "failed" }> }
  | { method: "code"; callback(code: string): Promise<AuthSuccess | { type: "failed" }> }
)

/** @deprecated Use AuthOAuthResult instead. */
export type AuthOuathResult = AuthOAuthResult

export type ProviderHookContext = {
  auth?: Auth
}

export type ProviderHook = {
  id: string
  models?: (provider: ProviderV2, context: ProviderHookContext) => Promise<Record<string, ModelV2>>
}

/** Everything a plugin may return. Each hook is optional. */
export interface Hooks {
  dispose?: () => Promise<void>
  event?: (input: { event: Event }) => Promise<void>
  config?: (input: Config) => Promise<void>
  /** Tools to register; each key is used as the tool name as it is. */
  tool?: { [key: string]: ToolDefinition }
  auth?: AuthHook
  provider?: ProviderHook
  /** Called when a new message is received. */
  "chat.message"?: (
    input: {
      sessionID: string
      agent?: string
      model?: { providerID: string; modelID: string }
      messageID?: string
      variant?: string
    },
    output: { message: UserMessage; parts: Part[] },
  ) => Promise<void>
  /** Changes the parameters sent to the model. */
  "chat.params"?: (
    input: { sessionID: string; agent: string; model: Model; provider: ProviderContext; message: UserMessage },
    output: {
      temperature: number
      topP: number
      topK: number
      maxOutputTokens: number | undefined
      options: Record<string, any>
    },
  ) => Promise<void>
  "chat.headers"?: (
    input: { sessionID: string; agent: string; model: Model; provider: ProviderContext; message: UserMessage },
    output: { headers: Record<string, string> },
  ) => Promise<void>
  "permission.ask"?: (input: Permission, output: { status: "ask" | "deny" | "allow" }) => Promise<void>
  "command.execute.before"?: (
    input: { command: string; sessionID: string; arguments: string },
    output: { parts: Part[] },
  ) => Promise<void>
  /** Runs before a tool; change `output.args` in place to change what the tool receives. Throw to block the call. */
  "tool.execute.before"?: (
    input: { tool: string; sessionID: string; callID: string },
    output: { args: any },
  ) => Promise<void>
  "shell.env"?: (
    input: { cwd: string; sessionID?: string; callID?: string },
    output: { env: Record<string, string> },
  ) => Promise<void>
  /** Runs after a tool (and after truncation); changes to `output` are what the model reads. */
  "tool.execute.after"?: (
    input: { tool: string; sessionID: string; callID: string; args: any },
    output: { title: string; output: string; metadata: any },
  ) => Promise<void>
  "experimental.chat.messages.transform"?: (
    input: {},
    output: { messages: { info: Message; parts: Part[] }[] },
  ) => Promise<void>
  "experimental.chat.system.transform"?: (
    input: { sessionID?: string; model: Model },
    output: { system: string[] },
  ) => Promise<void>
  "experimental.provider.small_model"?: (input: { provider: ProviderV2 }, output: { model?: ModelV2 }) => Promise<void>
  /** Called before session compaction; `context` is added to the default prompt, `prompt` replaces it. */
  "experimental.session.compacting"?: (
    input: { sessionID: string },
    output: { context: string[]; prompt?: string },
  ) => Promise<void>
  /** Called after compaction, before the synthetic "continue" turn; set `enabled` to false to skip it. */
  "experimental.compaction.autocontinue"?: (
    input: {
      sessionID: string
      agent: string
      model: Model
      provider: ProviderContext
      message: UserMessage
      overflow: boolean
    },
    output: { enabled: boolean },
  ) => Promise<void>
  "experimental.text.complete"?: (
    input: { sessionID: string; messageID: string; partID: string },
    output: { text: string },
  ) => Promise<void>
  /** Changes a tool's definition (description and parameters) before it is sent to the model. */
  "tool.definition"?: (input: { toolID: string }, output: { description: string; parameters: any }) => Promise<void>
}
