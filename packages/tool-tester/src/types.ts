// The library's public types: a loaded project, and the options and results of its functions.
// Types only, so that the engine's protocol, the pipeline steps and the public functions can all
// name them without importing one another.
import type { OpencodeConfig } from "./config/opencode-config.ts"
import type { ConfigDirectory, Environment } from "./discovery/config-dirs.ts"
import type { PluginHooks } from "./discovery/plugin-module.ts"
import type { ToolDefinitionLike } from "./discovery/tool-exports.ts"
import type { ToolTesterErrorCode } from "./errors.ts"
import type { ModelSelection } from "./pipeline/builtins.ts"
import type { ModelModality } from "./pipeline/model-messages.ts"
import type { ThrownDetails } from "./pipeline/normalize-result.ts"
import type { PermissionOverrides } from "./pipeline/permissions.ts"
import type { AskRecord, MetadataRecord } from "./pipeline/tool-context.ts"
import type { EscapedError } from "./runtime/escaped-errors.ts"
import type { EngineChoice, EngineInfo } from "./runtime/here.ts"

export type { EscapedError } from "./runtime/escaped-errors.ts"

export type LoadToolsOptions = {
  /** The project directory opencode runs in. Default: the working directory. */
  directory?: string
  /** Include user-level config folders (global config dir, `~/.opencode`) and the global opencode.json. Default true. */
  global?: boolean
  /** Extra plugin specs loaded after the configured ones: a module path, a package folder or a package name. */
  plugins?: Array<string | [string, Record<string, unknown>]>
  /** Environment read for XDG_CONFIG_HOME, OPENCODE_CONFIG_DIR, OPENCODE_DISABLE_PROJECT_CONFIG. Default process.env. */
  env?: Environment
  /** Home directory. Default os.homedir(). */
  home?: string
  /** Config merged over every opencode.json, like opencode's `OPENCODE_CONFIG_CONTENT`. */
  config?: OpencodeConfig
  /**
   * What loads and runs the tools: `bun` (the runtime opencode runs tools in, in a process of its
   * own), `node` (this process), or `auto` (bun when one is found, else node). Default: the
   * TOOL_TESTER_ENGINE environment variable, else `auto`. See docs/testing-a-tool.md.
   */
  engine?: EngineChoice
  /**
   * The bun engine's binary (an opencode or bun executable): its path, or a command name (no folder
   * in it, such as `"bun"`) looked up on PATH. Default: TOOL_TESTER_ENGINE_BINARY, else found.
   */
  engineBinary?: string
  /**
   * What plugins get as `input.client`. Default: the client of a real opencode server for the
   * project, started from the project's opencode binary when a plugin first calls it. Pass a stub
   * for fast unit tests: a partial client (`{ app: { log: async () => ({ data: true }) } }`); a
   * method it lacks rejects with CLIENT_METHOD_MISSING naming the method. See docs/fidelity.md.
   */
  client?: ClientStub
  /** Told each line the opencode server behind `input.client` prints (the CLI's --verbose). */
  onServerLog?: (line: string) => void
}

/** A partial `input.client` for tests: namespaces (`app`, `session`, ...) holding the methods a plugin calls. */
export type ClientStub = { [namespace: string]: unknown }

/** A custom tool opencode would register: from a tool file or a plugin's `tool` hook. */
export type LoadedTool = {
  id: string
  source: "file" | "plugin"
  /** The tool file, or the plugin module that registered it. */
  file: string
  /** The export name for a file tool (`default` for the default export). */
  export?: string
  /** The plugin spec for a plugin tool. */
  plugin?: string
  /** The tool's description, as it gives it. */
  description: string
  /** What this tool replaces: `builtin` or the file of an earlier tool with the same id. */
  overrides?: string
  /** Set when a later tool with the same id replaces this one: opencode keeps only the last. */
  overriddenBy?: string
  /**
   * The tool object itself. Only where the module was imported: under the bun engine it lives in
   * the engine's process, and `runTool` / `getToolSchemas` reach it there.
   */
  definition?: ToolDefinitionLike
}

/** Something that will not work as the author expects; loading goes on. */
export type Diagnostic = {
  code: ToolTesterErrorCode | "IGNORED_EXPORT" | "NO_TOOLS" | "AGENT_FALLBACK" | "UNKNOWN_ARGUMENT" | "MISSING_ARGUMENT"
  severity: "error" | "warning"
  message: string
  file?: string
  data?: Record<string, unknown>
}

export type LoadedPlugin = {
  spec: string
  file: string
  exportName: string
  /** The hooks the plugin returned, by name. */
  hookNames: string[]
  /** The hooks themselves, only where the plugin was initialised (see `LoadedTool.definition`). */
  hooks?: PluginHooks
}

/** Everything opencode would know about a project's custom tools. Pass it to the other functions. */
export type ToolProject = {
  /** What loaded the tools, and runs them. */
  engine: EngineInfo
  directory: string
  worktree: string
  configDirectories: ConfigDirectory[]
  config: OpencodeConfig
  configFiles: string[]
  /** Custom tools in registry order (files folder by folder, then plugin tools), duplicates kept. */
  tools: LoadedTool[]
  plugins: LoadedPlugin[]
  diagnostics: Diagnostic[]
  /** Tool files scanned, with the ids they produced (empty when none), for doctor. */
  files: Array<{ file: string; ids: string[]; namespace?: Record<string, unknown> }>
  /**
   * The module files the load imported, transitively, by absolute path: the tool and plugin files
   * and the helpers they import (one that failed to compile included), none under node_modules. What
   * `dev` and `run --watch` watch besides the config and tool folders. A call through an engine's
   * process that imports more (an `import()` inside `execute`) adds them when it returns.
   */
  modules?: string[]
}

export type RunOptions = {
  /** The provider npm package, provider id and model id: they change the tool list and `ctx.extra.model`. */
  model?: Partial<ModelSelection>
  /**
   * What the model takes besides text (its `modalities.input` in opencode.json): an image or PDF
   * attachment the provider takes only from a user reaches a model without that input as an error
   * text (docs/opencode-contract.md#attachments). Default: none, as e2e's mock model.
   */
  modelInput?: ModelModality[]
  /** Validate arguments with the tool's zod schema first, like opencode's built-in wrapper. Not what opencode 1.18 does for custom tools. */
  validate?: boolean
  /** Permission rules added after the config's: `deny: ["task"]` switches the truncation hint. */
  permissions?: PermissionOverrides
  /** Override the config's `tool_output.max_lines` / `max_bytes`. */
  maxLines?: number
  maxBytes?: number
  /** opencode's data folder; truncated outputs go to `<dataDirectory>/tool-output/`. Default: a folder under the OS temp dir, never your real opencode data. */
  dataDirectory?: string
  /**
   * Stop waiting after this many milliseconds: the tool's abort signal fires and the run reports
   * TOOL_TIMEOUT. Under the bun engine, a tool still running 1 s later (a busy loop, an await that
   * ignores the signal) has its engine ended, with what it started. Under the node engine the tool
   * runs in this process: it goes on, and a synchronous loop keeps the bound from firing at all.
   */
  timeoutMs?: number
  /**
   * The agent the call runs for (`ctx.agent`), as `opencode run --agent` takes it: a name that is
   * no primary agent falls back to the default agent. Default: the config's `default_agent` (after
   * the plugins' `config` hooks), else `build` (docs/opencode-contract.md#agent).
   */
  agent?: string
  sessionID?: string
  messageID?: string
  callID?: string
  /** The session history passed as `ctx.messages`. Default: the user message that asked for the call. */
  messages?: unknown[]
  /** The text of that default user message. Default: "tool-tester". */
  prompt?: string
  /**
   * Aborts the tool (its `ctx.abort` fires). Under the bun engine, a tool that has not stopped 1 s
   * later has its engine ended and the call is INTERRUPTED, and an abort while the project is loaded
   * again for the call (an earlier call ended its engine) ends that load with its engine and rejects
   * with the signal's reason; under the node engine the call waits for it. In vitest, pass the test
   * context's `signal`, aborted at the test's timeout.
   */
  signal?: AbortSignal
}

/**
 * What happened to one call, with the exact text the model receives in `output`. `status` tells the
 * two apart for the type checker: after `if (result.status === "error")`, `result.error` is there
 * and `title` and `metadata` are null; after `"completed"` they are a string and an object.
 */
export type RunResult = RunFields &
  (
    | {
        /** What opencode records on the tool part. */
        status: "completed"
        error?: undefined
        /** The part's title (`""` when the tool gave none) and metadata (with `truncated`), as `tool.execute.after` hooks left them. */
        title: string
        metadata: Record<string, unknown>
      }
    | {
        /** What opencode records on the tool part. */
        status: "error"
        /** Why the call failed (the model still reads `output`). */
        error: RunError
        /** opencode stores no title and no metadata on a failed call's part (docs/opencode-contract.md#failed-call-parts). */
        title: null
        metadata: null
      }
  )

/** Why a call failed: a code from docs/errors.md and a message saying what to fix. */
type RunError = {
  code: ToolTesterErrorCode
  message: string
  /** What the tool threw, beyond the message the model reads (TOOL_THREW). */
  thrown?: ThrownDetails
}

/** What every call's result holds, whether it completed or failed. */
type RunFields = {
  /** The name as called. */
  name: string
  /** The tool that ran: the repaired name, or `invalid` when the call was rerouted. */
  id: string
  /** Exactly what the model reads. */
  output: string
  /**
   * The file parts opencode keeps on the part, each with the part `id`, `sessionID` and `messageID`
   * it stamps on them: images it cannot read are dropped (and `output` says so), larger ones shrunk.
   */
  attachments: unknown[] | undefined
  /**
   * Only when the tool returned attachments, or a `tool.execute.after` hook put some there: the messages of the model's next request that carry
   * this result, in the provider's API (chat completions for `@ai-sdk/openai-compatible`, the
   * responses API for `@ai-sdk/openai`, the messages API for `@ai-sdk/anthropic`, generateContent's
   * contents for `@ai-sdk/google` and `@ai-sdk/google-vertex`, chat completions for `@ai-sdk/xai`, `@ai-sdk/groq`, `@ai-sdk/mistral`, `@openrouter/ai-sdk-provider` and the packages built on openai-compatible, the responses API for `@ai-sdk/azure`, Converse for `@ai-sdk/amazon-bedrock`), null for a provider not modelled
   * (docs/opencode-contract.md#attachments).
   */
  modelMessages?: unknown[] | null
  /**
   * Only with `@ai-sdk/cohere`, beside `modelMessages`: the entries this result adds to the
   * request's `documents`, where Cohere's package puts the images and PDFs the model reads, each
   * `{data: {text, title}}` with the file's base64 data as its text (docs/opencode-contract.md#attachments).
   */
  modelDocuments?: unknown[]
  /**
   * Only when the provider's package refuses to write the model's next request for this result:
   * the error opencode's run then ends with, so the model never gets the result (observed:
   * `@ai-sdk/xai` with a PDF the model takes as input, `@ai-sdk/amazon-bedrock` with a file type
   * Converse has no document format for; `modelMessages` is null then).
   */
  modelRequestError?: string
  truncated: boolean
  outputPath: string | undefined
  /** The arguments the tool received (after `tool.execute.before` hooks, or parsed when validating). */
  args: unknown
  /** True when the name was lowercased to find the tool. */
  repaired: boolean
  /** True when the call went to `invalid` (unknown name or unparsable arguments). */
  rerouted: boolean
  asks: AskRecord[]
  metadataCalls: MetadataRecord[]
  durationMs: number
  /** Errors of plugins' `event` hooks during the call: opencode prints them and goes on, so the call is not failed. */
  hookErrors?: HookError[]
  /**
   * Errors that escaped a tool outside the promise `execute` returns (a promise left to reject, a
   * throw in a timer or an event handler) while the call ran or just after it returned: opencode
   * prints them and goes on, so the call is not failed by them. "Just after" is one turn of the
   * event loop, or 10 ms when the call left a timer or (under Node) other async work behind; a call
   * that left nothing behind answers at once (docs/opencode-contract.md#escaped-errors).
   */
  escapedErrors?: EscapedError[]
}

export type ListOptions = {
  /** The provider npm package, provider id and model id the list is built for. */
  model?: Partial<ModelSelection>
  /** Permission rules added after the config's (a denied tool is left out, as opencode does). */
  permissions?: PermissionOverrides
}

/** One tool of the request's `tools` array, in the order opencode sends them. */
export type ListedTool = {
  id: string
  source: "builtin" | "file" | "plugin"
  file?: string
  export?: string
  plugin?: string
  overrides?: string
}

/** An `event` hook that threw: opencode prints it and goes on. */
export type HookError = { hook: "event"; file: string; message: string }
