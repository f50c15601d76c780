// The result of one call as it is built up: who was called with what, then how it ended. A failed
// call is recorded as opencode records it: the model still reads `output`, and the part has no
// title and no metadata (docs/opencode-contract.md#failed-call-parts).
import type { ToolTesterErrorCode } from "../errors.ts"
import type { RunResult } from "../types.ts"
import type { ThrownDetails } from "./normalize-result.ts"
import type { RawToolCall, ResolvedCall } from "./repair-call.ts"

export class CallRecord {
  readonly result: RunResult
  // process.hrtime, not performance.now(): the first use of `performance` loads perf_hooks (~1 ms).
  readonly #started = process.hrtime.bigint()

  constructor(call: RawToolCall, resolved: ResolvedCall, given: { parsed: unknown } | undefined) {
    this.result = {
      name: call.name,
      // A failed repaired call keeps the name as called, as opencode's history does.
      id: resolved.kind === "run" ? resolved.id : resolved.kind === "failed" ? call.name : "invalid",
      status: "completed",
      output: "",
      title: "",
      metadata: {},
      attachments: undefined,
      truncated: false,
      outputPath: undefined,
      asks: [],
      metadataCalls: [],
      durationMs: 0,
      args: argumentsOf(call, resolved, given),
      repaired: resolved.kind === "failed" || (resolved.kind === "run" && resolved.repaired),
      rerouted: resolved.kind === "invalid",
    }
  }

  /** The call ended: its duration is set, and the result is final. */
  finish(): RunResult {
    // The model reads the text as UTF-8: a lone surrogate (a string cut inside an emoji) arrives as
    // U+FFFD (observed on 1.18.34: "🌍🌍".slice(0, 3) was read as "🌍\uFFFD").
    if (typeof this.result.output === "string") this.result.output = wellFormed(this.result.output)
    this.result.durationMs = Math.round(Number(process.hrtime.bigint() - this.#started) / 10_000) / 100
    return this.result
  }

  /**
   * The call failed: `output` is what the model reads, `message` what the author is told, `thrown`
   * what was thrown, read already (readThrown): reading it runs the tool's getters, which must not
   * run after the built-ins were checked.
   */
  fail(code: ToolTesterErrorCode, output: string, message = output, thrown?: ThrownDetails): RunResult {
    markFailed(this.result, code, output, message, thrown)
    return this.finish()
  }
}

/** Makes `result` a failed call's, as {@link CallRecord.fail} does (also for a call that ended already). */
export function markFailed(
  result: RunResult,
  code: ToolTesterErrorCode,
  output: string,
  message = output,
  thrown?: ThrownDetails,
): void {
  result.status = "error"
  result.output = output
  result.title = null
  result.metadata = null
  // Defined, not assigned: `error` may not be an own key yet, and an assignment would reach a
  // setter a tool left on Object.prototype, which could rewrite the whole result.
  Object.defineProperty(result, "error", {
    value: thrown === undefined ? { code, message } : { code, message, thrown },
    writable: true,
    enumerable: true,
    configurable: true,
  })
}

// --- internal ---

/** The arguments as the tool would get them: given already parsed, repaired, rerouted, or the raw text of a failed repair. */
function argumentsOf(call: RawToolCall, resolved: ResolvedCall, given: { parsed: unknown } | undefined): unknown {
  if (resolved.kind === "run") return given ? given.parsed : resolved.args
  if (resolved.kind === "invalid") return resolved.args
  return call.rawArguments
}

/** `text` with each lone surrogate replaced by U+FFFD, as UTF-8 encoding replaces it. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
}
