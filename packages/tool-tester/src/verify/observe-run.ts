// Runs one probe run through a real opencode binary with the scripted mock model (runE2E) and
// records what it did (observed-run.ts): for the golden files (test/conformance/generate-golden.ts)
// and for `tool-tester verify`.

import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { cp, mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { carriedResult } from "../e2e/carried-result.ts"
import type { E2EResult } from "../e2e/e2e-result.ts"
import { offeredToolNames } from "../e2e/offered-tools.ts"
import { runE2EWithin } from "../e2e/run-e2e.ts"
import { parseScript } from "../e2e/script.ts"
import { ToolTesterError } from "../errors.ts"
import { guard } from "../runtime/reaper.ts"
import { normaliseObserved } from "./normalise-observed.ts"
import type { ObservedRun } from "./observed-run.ts"
import type { ProbeRun } from "./probe-set.ts"

/** The bound of a run whose probe sets none (opencode answers a probe in seconds; the machine may be loaded). */
const defaultRunTimeoutMs = 180_000

export interface ObserveOptions {
  /** The probe project folder. */
  directory: string
  run: ProbeRun
  /** The opencode binary. */
  opencode: string
  /**
   * Overrides the run's own bound; a function is asked again each second while opencode runs
   * (`tool-tester verify`'s load-following bound, run-bounds.ts).
   */
  timeoutMs?: number | (() => number)
  signal?: AbortSignal
}

export async function observeRun(options: ObserveOptions): Promise<ObservedRun> {
  const { run } = options
  const script = parseScript(run.script)
  // runE2E's own copy is a git worktree root (opencode/worktree-root.ts): a probe that records what
  // opencode does outside git (worktree "/") runs in place, in a copy of ours without one.
  const copy = await mkdtemp(join(tmpdir(), "tool-tester-probe-copy-"))
  // Removed at exit too: verify's Ctrl-C exits once one lane has stopped, before the others' finally.
  const guarded = guard({ paths: [copy] })
  const project = join(copy, "project")
  const bound = options.timeoutMs ?? run.timeoutMs ?? defaultRunTimeoutMs
  // The bound as last read: the one a run stopped at had passed.
  let lastBoundMs = typeof bound === "number" ? bound : Number.POSITIVE_INFINITY
  const readBound = () => {
    if (typeof bound === "function") lastBoundMs = bound()
    return lastBoundMs
  }
  try {
    await cp(options.directory, project, { recursive: true })
    if (run.git === true) await promisify(execFile)("git", ["init", "-q"], { cwd: project, windowsHide: true })
    const result = await runE2EWithin(
      {
        directory: project,
        copyProject: false,
        script,
        opencode: options.opencode,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(run.model === undefined ? {} : { model: run.model }),
        ...(run.provider === undefined ? {} : { provider: run.provider }),
        ...(run.config === undefined ? {} : { config: run.config }),
        ...(run.agent === undefined ? {} : { agent: run.agent }),
      },
      typeof bound === "number" ? bound : readBound,
    ).catch((error: unknown) => {
      const recorded = recordedFailure(error, lastBoundMs)
      if (recorded === undefined) throw error
      return recorded
    })
    return normaliseObserved(observed(run, result), result.sandbox)
  } finally {
    // On Windows opencode just ended can hold the copy a moment longer (EBUSY): retried, and a copy
    // that still cannot go is left to the guard, which removes it at exit: the observation stands.
    await rm(copy, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).then(
      () => guarded.release(),
      () => undefined,
    )
  }
}

// --- internal ---

/**
 * The partial result of a run runE2E stopped at its bound (marked hung), or of an opencode that
 * ended before talking to the model (what it printed is the observation); else undefined.
 */
function recordedFailure(error: unknown, timeoutMs: number): (E2EResult & { hung?: boolean }) | undefined {
  if (!(error instanceof ToolTesterError)) return undefined
  if (error.code !== "TOOL_TIMEOUT" && error.code !== "OPENCODE_FAILED") return undefined
  const result = (error.data as { result?: E2EResult } | undefined)?.result
  if (result === undefined) return undefined
  // OPENCODE_FAILED also means "ended before talking to the model": that run exited on its own.
  const hung = result.exitCode === null && result.durationMs >= timeoutMs
  return hung ? { ...result, hung: true } : result
}

function observed(run: ProbeRun, result: E2EResult & { hung?: boolean }): ObservedRun {
  return {
    name: run.name,
    model: run.model ?? "mock-model",
    provider: run.provider ?? "@ai-sdk/openai-compatible",
    config: run.config ?? null,
    git: run.git ?? false,
    ...(run.agent === undefined ? {} : { agent: run.agent }),
    requests: result.requests.map((request) => request.kind),
    toolNames: result.tools === null ? null : offeredToolNames(result.tools),
    tools: result.tools as ObservedRun["tools"],
    calls: result.calls.map((call) => ({
      turn: call.turn,
      called: call.as_called,
      ran: call.as_run,
      result: call.result,
      status: call.status,
      title: call.title,
      metadata: call.metadata,
      error: call.error,
      input: call.input,
      ...(run.attachments === true ? { carried: carriedResult(result.requests, call) } : {}),
    })),
    toolOutputFiles: result.toolOutputFiles.map((file) => ({
      bytes: file.bytes,
      sha256: file.content === undefined ? null : createHash("sha256").update(file.content).digest("hex"),
    })),
    errors: result.errors,
    exitCode: result.exitCode,
    ...(result.hung === true ? { hung: true } : {}),
  }
}
