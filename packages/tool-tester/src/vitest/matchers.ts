// The matchers `@opencode-ai/tool-tester/vitest` adds to vitest's expect. Snapshots go through
// vitest's own snapshot state (Snapshots.toMatchSnapshot), so `-u` updates them and a mismatch
// shows vitest's diff.
import path from "node:path"
import { Snapshots } from "vitest"
import type { Finding } from "../doctor/finding.ts"
import { resultFindings } from "../doctor/results.ts"
import { lintProject } from "../lint/lint.ts"
import {
  ALL_PROVIDER_NAMES,
  LINT_PROVIDERS,
  type LintProvider,
  lintProviderNamed,
  type ProviderName,
  unknownProviderMessage,
} from "../lint/providers.ts"
import { getToolSchemas } from "../list-tools.ts"
import { engineOf } from "../project-engine/engine-of.ts"
import { ToolTesterError } from "../errors.ts"
import { described } from "../_described.ts"
import { isRecord } from "../_is-record.ts"
import { refuseUnknownOptions } from "../_known-options.ts"
import { checkTimeoutOption } from "../_timeout-bound.ts"
import type { ToolProject } from "../types.ts"
import { isRunResult, modelView } from "./model-view.ts"

type MatcherState = ThisParameterType<typeof Snapshots.toMatchSnapshot>
type MatcherResult = { pass: boolean; message: () => string }

export const toolTesterMatchers = {
  toMatchModelView(this: MatcherState, received: unknown, hint?: string): MatcherResult {
    if (!isRunResult(received)) {
      throw misuse("toMatchModelView() expects what runTool() or callTool() resolved to: await the call first")
    }
    return Snapshots.toMatchSnapshot.call(this, modelView(received), hint)
  },

  toMatchInlineModelView(this: MatcherState, received: unknown, inlineSnapshot?: string): MatcherResult {
    if (!isRunResult(received)) {
      throw misuse("toMatchInlineModelView() expects what runTool() or callTool() resolved to: await the call first")
    }
    return Snapshots.toMatchInlineSnapshot.call(this, modelView(received), inlineSnapshot)
  },

  async toMatchProviderSchemas(
    this: MatcherState,
    received: unknown,
    providers: readonly ProviderName[],
    hint?: string,
  ): Promise<MatcherResult> {
    const project = projectOf(received, "toMatchProviderSchemas")
    const snapshot: Record<string, unknown> = {}
    const checked = checkedProviders(providers)
    for (const [index, provider] of checked.entries()) {
      const schemas = await getToolSchemas(project, { model: LINT_PROVIDERS[provider].model })
      if (!schemas.success) throw schemas.error
      snapshot[providers[index]!] = schemas.value
    }
    return Snapshots.toMatchSnapshot.call(this, snapshot, hint)
  },

  /**
   * Passes when `tool-tester doctor` would find no error in the project (exit 0): every tool file
   * imports, opencode can build the tool list (a `z.date()` argument leaves it with no custom
   * tools), and no provider this project's model uses rejects a schema. Warnings do not fail it.
   * `calls` bound each of doctor's calls (`timeoutMs`) and stop them (`signal`: once it is aborted,
   * doctor's own work in an engine's process ends with that process, no call starts, the running
   * one gets it, and the matcher rejects with its reason, whatever doctor found). The calls are made one after another, as doctor makes them (doctor/results.ts).
   */
  async toLoadInOpencode(
    this: MatcherState,
    received: unknown,
    calls: LoadInOpencodeOptions = {},
  ): Promise<MatcherResult> {
    const project = projectOf(received, "toLoadInOpencode")
    checkLoadOptions(calls)
    // Stopped (the test timed out): the verdict would be about a run that did not finish, whether
    // the signal came before doctor, during it, or with doctor's errors leaving no call to make.
    calls.signal?.throwIfAborted()
    const options = { cwd: project.directory }
    const engine = engineOf(project)
    const payload = (
      engine.doctor
        ? await engine.doctor(options, calls.signal)
        : await (await import("../tasks/doctor-task.ts")).doctorProject(project, options)
    ) as { findings: Finding[] }
    calls.signal?.throwIfAborted()
    // One call of each tool, made from here: a tool that ends its engine ends that engine only.
    // As doctor: only once nothing else is an error.
    const loaded = !payload.findings.some((finding) => finding.severity === "error")
    const findings = loaded ? [...payload.findings, ...(await resultFindings(project, calls))] : payload.findings
    const errors = findings.filter((finding) => finding.severity === "error")
    const line = (finding: Finding) =>
      `  - ${finding.file ? `${path.relative(project.directory, finding.file) || finding.file}: ` : ""}${finding.message} [${finding.code}]`
    return {
      pass: errors.length === 0,
      message: () =>
        errors.length === 0
          ? "expected opencode to fail to load the tools, but tool-tester doctor finds no error"
          : [
              `expected opencode to load the tools, but tool-tester doctor finds ${errors.length === 1 ? "an error" : `${errors.length} errors`}:`,
              ...errors.map(line),
            ].join("\n"),
    }
  },

  async toBeAcceptedBy(this: MatcherState, received: unknown, provider: ProviderName): Promise<MatcherResult> {
    const project = projectOf(received, "toBeAcceptedBy")
    const [checked] = checkedProviders([provider])
    const linted = await lintProject(project, [checked as LintProvider])
    if (!linted.success) throw linted.error
    const errors = linted.value.filter((finding) => finding.severity === "error")
    const label = LINT_PROVIDERS[checked as LintProvider].label
    return {
      pass: errors.length === 0,
      message: () =>
        errors.length === 0
          ? `expected ${label} to reject a tool, but it accepts every one`
          : [
              `expected ${label} to accept every tool, but it rejects:`,
              ...errors.map((e) => `  - ${e.message} (rule ${e.rule})`),
            ].join("\n"),
    }
  },
}

/** What `toLoadInOpencode()` takes: each call's bound (default 5000 ms), and a signal that stops the calls. */
export type LoadInOpencodeOptions = { timeoutMs?: number; signal?: AbortSignal }

// --- internal ---

const LOAD_OPTIONS = { timeoutMs: true, signal: true } as const

/** Refuses options the calls cannot run with (USAGE naming the option), before anything runs. */
function checkLoadOptions(options: unknown): asserts options is LoadInOpencodeOptions {
  if (!isRecord(options)) throw misuse(`toLoadInOpencode()'s options must be an object, not ${described(options)}`)
  refuseUnknownOptions("toLoadInOpencode()", options, LOAD_OPTIONS)
  checkTimeoutOption("timeoutMs", options["timeoutMs"])
  const signal = options["signal"]
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw misuse(`signal must be an AbortSignal (the test context's signal), not ${described(signal)}`)
}

function projectOf(received: unknown, matcher: string): ToolProject {
  const record = received as Record<string, unknown> | null
  if (typeof record !== "object" || record === null || !Array.isArray(record["tools"]) || !("engine" in record)) {
    throw misuse(`${matcher}() expects the project loadTools() resolved to: await loadTools() first`)
  }
  return received as ToolProject
}

/** The lint provider each name stands for (lint/providers.ts); an unknown name throws with the closest one. */
function checkedProviders(providers: readonly string[]): LintProvider[] {
  if (typeof providers === "string") {
    const quoted = JSON.stringify(providers)
    throw misuse(`toMatchProviderSchemas() takes a list of providers: write [${quoted}], not ${quoted}`)
  }
  if (!Array.isArray(providers) || providers.length === 0) {
    throw misuse(`name at least one provider: ${ALL_PROVIDER_NAMES.join(", ")}`)
  }
  return providers.map((provider) => {
    const lint = typeof provider === "string" ? lintProviderNamed(provider) : undefined
    if (lint === undefined) throw misuse(unknownProviderMessage(String(provider)))
    return lint
  })
}

/** A matcher used the wrong way: USAGE, as the library's own functions say it. */
function misuse(message: string): ToolTesterError {
  return new ToolTesterError("USAGE", message)
}
