import { z } from "zod"

/** What opencode passes as the second argument of `execute`. */
export type ToolContext = {
  sessionID: string
  /** The id of the assistant message that made the tool call. */
  messageID: string
  /** The name of the agent running the tool, for example `build`. */
  agent: string
  /**
   * The session's project directory.
   * Resolve relative paths against it rather than against `process.cwd()`.
   */
  directory: string
  /**
   * The git worktree root of the project (`"/"` when the project is not in a git repository).
   * Use it for stable relative paths: `path.relative(worktree, absolutePath)`.
   */
  worktree: string
  /** Fires when the user or the host cancels the tool call. */
  abort: AbortSignal
  /** Updates the live title and metadata of the running tool call. */
  metadata(input: { title?: string; metadata?: { [key: string]: any } }): void
  /** Asks for a permission; resolves when allowed, rejects when denied. */
  ask(input: AskInput): Promise<void>
}

/** A permission request made with `context.ask()`. */
type AskInput = {
  permission: string
  patterns: string[]
  always: string[]
  metadata: { [key: string]: any }
}

/** A file sent to the model next to a tool's text output. */
export type ToolAttachment = {
  type: "file"
  mime: string
  url: string
  filename?: string
}

/** What `execute` resolves to: a string, or an object whose `output` is what the model reads. */
export type ToolResult =
  | string
  | {
      title?: string
      output: string
      metadata?: { [key: string]: any }
      attachments?: ToolAttachment[]
    }

/**
 * Declares a custom tool. At run time it returns its input unchanged; its value is in the types:
 * `args` is a plain object of zod schemas and `execute` receives their inferred values.
 */
export function tool<Args extends z.ZodRawShape>(input: {
  description: string
  args: Args
  execute(args: z.infer<z.ZodObject<Args>>, context: ToolContext): Promise<ToolResult>
}): {
  description: string
  args: Args
  execute(args: z.infer<z.ZodObject<Args>>, context: ToolContext): Promise<ToolResult>
} {
  return input
}

/** zod 4, the same copy the package is built with: `tool.schema.string()`. */
tool.schema = z

/** The type of any tool made with `tool()`. */
export type ToolDefinition = ReturnType<typeof tool>
