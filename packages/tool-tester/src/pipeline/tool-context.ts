import type { PermissionRule } from "../config/permission.ts"
import { deniedMessage, evaluate } from "../config/permission.ts"
import type { ModelSelection } from "./builtins.ts"

/** A `ctx.ask()` call and what the permission rules answered. */
export type AskRecord = {
  permission: string
  patterns: string[]
  always: string[]
  metadata: Record<string, unknown>
  /** `allow`/`deny` from a rule, or the `ask` policy's answer when the rules said ask. */
  decision: "allow" | "deny"
  /** The rule that decided (action `ask` when no rule matched or the matching rule asks). */
  rule: PermissionRule
}

/** A `ctx.metadata()` call. opencode 1.18 records nothing for custom tools; we keep them for tests. */
export type MetadataRecord = { title?: string; metadata?: Record<string, unknown> }

export type ContextOptions = {
  sessionID: string
  messageID: string
  callID: string
  agent: string
  directory: string
  worktree: string
  abort: AbortSignal
  model: ModelSelection
  messages: unknown[]
  rules: readonly PermissionRule[]
  /** What an `ask` rule answers. */
  askPolicy: "allow" | "deny"
  asks: AskRecord[]
  metadataCalls: MetadataRecord[]
}

/**
 * The context object opencode 1.18.34 passes to a custom tool, with the same keys in the same order
 * (docs/opencode-contract.md#tool-context). `ask()` applies the permission rules and rejects with
 * opencode's texts.
 */
export function createToolContext(options: ContextOptions): Record<string, unknown> {
  return {
    sessionID: options.sessionID,
    abort: options.abort,
    messageID: options.messageID,
    callID: options.callID,
    extra: { model: modelInfo(options.model), bypassAgentCheck: false, promptOps: {} },
    agent: options.agent,
    messages: options.messages,
    metadata(input: MetadataRecord) {
      options.metadataCalls.push(structuredCloneSafe(input))
      // opencode 1.18 returns an Effect that nothing runs: an object, and no live update.
      return UNRUN_EFFECT
    },
    async ask(input: {
      permission: string
      patterns: string[]
      always?: string[]
      metadata?: Record<string, unknown>
    }) {
      const patterns = Array.isArray(input?.patterns) ? input.patterns : []
      let decided: PermissionRule | undefined
      for (const pattern of patterns.length > 0 ? patterns : ["*"]) {
        const rule = evaluate(input.permission, pattern, options.rules)
        if (rule.action === "deny") {
          decided = rule
          break
        }
        if (rule.action === "ask" || !decided) decided = rule
      }
      const rule = decided ?? evaluate(input.permission, "*", options.rules)
      const decision = rule.action === "ask" ? options.askPolicy : rule.action
      options.asks.push({
        permission: input.permission,
        patterns,
        always: input.always ?? [],
        metadata: input.metadata ?? {},
        decision,
        rule,
      })
      if (decision === "allow") return undefined
      if (rule.action === "deny")
        throw namedError("PermissionDeniedError", deniedMessage(input.permission, options.rules))
      throw namedError("PermissionRejectedError", "The user rejected permission to use this specific tool call.")
    },
    directory: options.directory,
    worktree: options.worktree,
  }
}

// --- internal ---

const UNRUN_EFFECT = Object.freeze({})

/** The model object opencode passes in `ctx.extra.model`, with its keys in opencode's order. */
export function modelInfo(model: ModelSelection): Record<string, unknown> {
  return {
    id: model.modelID,
    api: { id: model.modelID, url: "", npm: model.npm },
    status: "active",
    name: model.modelID,
    providerID: model.providerID,
    capabilities: {
      temperature: false,
      reasoning: false,
      attachment: false,
      toolcall: true,
      input: { text: true, audio: false, image: false, video: false, pdf: false },
      output: { text: true, audio: false, image: false, video: false, pdf: false },
      interleaved: false,
    },
    cost: { input: 0, output: 0, cache: { read: 0, write: 0 } },
    options: {},
    limit: { context: 0, output: 0 },
    headers: {},
    family: "",
    release_date: "",
    variants: {},
  }
}

function namedError(name: string, message: string): Error {
  const error = new Error(message)
  error.name = name
  return error
}

function structuredCloneSafe(input: MetadataRecord): MetadataRecord {
  try {
    return structuredClone(input)
  } catch {
    return input
  }
}
