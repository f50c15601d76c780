// The eval runner's parts that need no opencode: the wrapper and guard modules against the
// runner's endpoint (imported here as opencode imports them), the error classification, which
// models can run, which agents can be prompted, and what is said when opencode ends mid-run.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterEach, describe, expect, it, vi } from "vitest"
import { startCallEndpoint } from "../../src/eval/runner/call-endpoint.ts"
import { evalAgents } from "../../src/eval/runner/eval-agents.ts"
import { resolveModels } from "../../src/eval/runner/models.ts"
import { endpointVariable, guardPluginSource, wrapperSource } from "../../src/eval/runner/module-sources.ts"
import type { EndedServer, InFlight } from "../../src/eval/runner/eval-servers.ts"
import { exitProblem, notRestartedError, trialVerdict } from "../../src/eval/runner/opencode-exit.ts"
import { messageTrialError, retryTrialError } from "../../src/eval/runner/trial-error.ts"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  vi.unstubAllEnvs()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function folder(): string {
  const path = mkdtempSync(join(tmpdir(), "tool-tester-eval-parts-"))
  cleanups.push(() => rmSync(path, { recursive: true, force: true }))
  return path
}

describe("the tool wrapper", () => {
  it("keeps each tool's description and args, and lets the runner answer or run its execute", async () => {
    const directory = folder()
    const original = join(directory, "weather.mjs")
    writeFileSync(
      original,
      `export default { description: "Weather", args: { city: "schema" }, execute: async (args) => "ran for " + args.city }
export const other = { description: "Other", args: {}, execute: async () => "other ran" }
export const helper = 42
`,
    )
    const asked: unknown[] = []
    const endpoint = await startCallEndpoint({
      onCall: (call) => {
        asked.push(call)
        return call.tool === "weather_other" ? { execute: true } : { output: `stated for ${call.tool}` }
      },
      onBefore: () => ({ allow: true }),
    })
    cleanups.push(() => endpoint.close())
    vi.stubEnv(endpointVariable, endpoint.url)
    const wrapper = join(directory, "wrapper.mjs")
    const source = wrapperSource(original, [
      { exportName: "default", id: "weather" },
      { exportName: "other", id: "weather_other" },
    ])
    writeFileSync(wrapper, source)
    const module = (await import(pathToFileURL(wrapper).href)) as Record<string, Record<string, unknown>>
    expect(Object.keys(module).sort()).toEqual(["default", "other"])
    expect(module.default).toMatchObject({ description: "Weather", args: { city: "schema" } })
    const context = { sessionID: "ses_1", callID: "call_1" }
    const execute = (name: string, args: unknown) =>
      (module[name]!.execute as (args: unknown, context: unknown) => Promise<string>)(args, context)
    expect(await execute("default", { city: "Paris" })).toBe("stated for weather")
    expect(await execute("other", {})).toBe("other ran")
    expect(asked[0]).toEqual({ tool: "weather", sessionID: "ses_1", callID: "call_1", args: { city: "Paris" } })
  })
})

describe("the guard plugin", () => {
  it("reports each call and throws the runner's refusal", async () => {
    const seen: string[] = []
    const endpoint = await startCallEndpoint({
      onCall: () => ({ output: "" }),
      onBefore: (call) => {
        seen.push(`${call.sessionID}/${call.tool}`)
        return call.tool === "stamp" ? { deny: "Not run by tool-tester eval: stamp" } : { allow: true }
      },
    })
    cleanups.push(() => endpoint.close())
    vi.stubEnv(endpointVariable, endpoint.url)
    const file = join(folder(), "guard.mjs")
    writeFileSync(file, guardPluginSource())
    const { ToolTesterEvalGuard } = (await import(pathToFileURL(file).href)) as {
      ToolTesterEvalGuard: () => Promise<Record<string, (input: unknown, output: unknown) => Promise<void>>>
    }
    const hooks = await ToolTesterEvalGuard()
    const beforeHook = hooks["tool.execute.before"]!
    await expect(beforeHook({ tool: "read", sessionID: "ses_1", callID: "c1" }, { args: {} })).resolves.toBeUndefined()
    await expect(beforeHook({ tool: "stamp", sessionID: "ses_1", callID: "c2" }, { args: {} })).rejects.toThrow(
      "Not run by tool-tester eval: stamp",
    )
    expect(seen).toEqual(["ses_1/read", "ses_1/stamp"])
  })

  it("is refused by the endpoint without its token", async () => {
    const endpoint = await startCallEndpoint({ onCall: () => ({ output: "" }), onBefore: () => ({ allow: true }) })
    cleanups.push(() => endpoint.close())
    const origin = new URL(endpoint.url).origin
    const answer = await fetch(`${origin}/before`, { method: "POST", body: JSON.stringify({ tool: "read" }) })
    expect(answer.status).toBe(404)
  })
})

describe("trial errors", () => {
  it("classifies a provider's error by its status, keeping the provider's message", () => {
    const api = (statusCode: number, message: string) => ({ name: "APIError", data: { statusCode, message } })
    expect(messageTrialError(api(401, "Incorrect API key provided"))).toEqual({
      code: "AUTH_ERROR",
      message: "Incorrect API key provided (HTTP 401)",
    })
    expect(messageTrialError(api(429, "Slow down")).code).toBe("RATE_LIMITED")
    expect(messageTrialError(api(500, "Internal error"))).toEqual({
      code: "PROVIDER_ERROR",
      message: "Internal error (HTTP 500)",
    })
    expect(messageTrialError({ name: "ProviderAuthError", data: { message: "no key for x" } }).code).toBe("AUTH_ERROR")
    expect(messageTrialError({ name: "UnknownError", data: { message: "Unable to connect" } }).code).toBe(
      "PROVIDER_UNREACHABLE",
    )
  })

  it("classifies the message of a retry opencode announced", () => {
    expect(retryTrialError("Cannot connect to API: Unable to connect.", 3).code).toBe("PROVIDER_UNREACHABLE")
    expect(retryTrialError("Rate limit reached for gpt-4o", 3)).toEqual({
      code: "RATE_LIMITED",
      message: "Rate limit reached for gpt-4o (opencode retried 3 times; tool-tester eval stopped it)",
    })
    expect(retryTrialError("Provider is overloaded", 3).code).toBe("PROVIDER_ERROR")
  })
})

describe("resolveModels", () => {
  const usable = [
    { id: "anthropic", models: { "claude-sonnet-4-5": { cost: { input: 3, output: 15 } } } },
    { id: "local", models: { "qwen3-coder": { api: { npm: "@ai-sdk/openai-compatible", id: "qwen3-coder-30b" } } } },
  ]
  const catalogue = [...usable, { id: "openai", env: ["OPENAI_API_KEY"], models: { "gpt-5": {} } }]

  it("runs the configured model when none is named, and says when there is none", () => {
    expect(resolveModels({ requested: [], configured: "local/qwen3-coder", usable, catalogue })).toEqual({
      models: [
        {
          id: "local/qwen3-coder",
          providerID: "local",
          modelID: "qwen3-coder",
          priced: false,
          api: { npm: "@ai-sdk/openai-compatible", id: "qwen3-coder-30b" },
        },
      ],
      problems: [],
    })
    const none = resolveModels({ requested: [], configured: undefined, usable, catalogue })
    expect(none.models).toEqual([])
    expect(none.problems[0]?.code).toBe("EVAL_NO_MODEL")
    expect(none.problems[0]?.message).toContain("anthropic/claude-sonnet-4-5, local/qwen3-coder")
  })

  it("names an unknown model with did-you-mean and runs the others; a provider without a key gets AUTH_ERROR trials", () => {
    const resolved = resolveModels({
      requested: ["anthropic/claude-sonet-4-5", "anthropic/claude-sonnet-4-5", "openai/gpt-5"],
      configured: undefined,
      usable,
      catalogue,
    })
    expect(resolved.problems).toEqual([
      {
        code: "EVAL_MODEL_UNKNOWN",
        model: "anthropic/claude-sonet-4-5",
        message: 'opencode knows no model "anthropic/claude-sonet-4-5"; did you mean "anthropic/claude-sonnet-4-5"?',
      },
    ])
    expect(resolved.models.map((model) => [model.id, model.priced, model.error?.code])).toEqual([
      ["anthropic/claude-sonnet-4-5", true, undefined],
      ["openai/gpt-5", false, "AUTH_ERROR"],
    ])
    expect(resolved.models[1]?.error?.message).toContain("set OPENAI_API_KEY")
  })
})

describe("evalAgents", () => {
  // GET /agent as opencode 1.18.34 answers it for a project with no agents of its own (observed).
  const listed = [
    { name: "build", mode: "primary" },
    { name: "compaction", mode: "primary", hidden: true },
    { name: "explore", mode: "subagent" },
    { name: "general", mode: "subagent" },
    { name: "plan", mode: "primary" },
    { name: "summary", mode: "primary", hidden: true },
    { name: "title", mode: "primary", hidden: true },
  ]
  const api = { get: async <T>() => listed as T }
  const pickable = "agents you can pick: build, explore, general, plan"

  it("refuses a hidden --agent (title, summary, compaction), listing the agents a user can pick", async () => {
    for (const agent of ["title", "summary", "compaction"]) {
      await expect(evalAgents(api, { agent, cases: [] })).rejects.toMatchObject({
        code: "USAGE",
        message: `--agent ${agent}: opencode's agent "${agent}" is hidden: opencode runs it itself, and no user can pick it (${pickable})`,
        data: { option: "agent", agents: ["build", "explore", "general", "plan"] },
      })
    }
    await expect(evalAgents(api, { agent: "plann", cases: [] })).rejects.toMatchObject({
      message: `--agent plann: opencode has no agent "plann" in this project; did you mean "plan"? (${pickable})`,
    })
    expect(await evalAgents(api, { agent: "explore", cases: [] })).toEqual({ cases: [], problems: [] })
  })

  it("leaves out a case whose agent is hidden, as one whose agent does not exist", async () => {
    const cases = [
      { name: "titles", prompt: "p", agent: "title", source: { file: ".opencode/evals/a.json", line: 3 } },
      { name: "plans", prompt: "p", agent: "plan" },
    ]
    expect(await evalAgents(api, { cases })).toEqual({
      cases: [cases[1]],
      problems: [
        {
          code: "EVAL_CASE_INVALID",
          message: `.opencode/evals/a.json:3: case "titles": opencode's agent "title" is hidden: opencode runs it itself, and no user can pick it (${pickable}); the case is left out`,
        },
      ],
    })
  })
})

describe("when opencode ends while trials run", () => {
  const trial = (name: string, ranForReal: string[] = [], arm?: string): InFlight => ({
    case: name,
    model: "keyword/alpha",
    run: 1,
    ...(arm === undefined ? {} : { arm }),
    ranForReal: new Set(ranForReal),
  })

  it("fails the trial that ran a tool for real and runs the others running then again, once", () => {
    const quits = trial("quits", ["quit"])
    const bystander = trial("greets", [], "without greet")
    const end: EndedServer = { exit: { code: 3, signal: null }, during: [quits, bystander], rerun: 0 }
    const line =
      'opencode exited (exit code 3) while case "quits" (run 1 on keyword/alpha) ran quit for real (the case\'s "execute"): the tool ended opencode\'s process, as process.exit or a kill in a tool does (tool-tester run reports it as TOOL_EXITED)'
    expect(trialVerdict(end, quits, false)).toEqual({ rerun: false, error: { code: "OPENCODE_EXITED", message: line } })
    expect(trialVerdict(end, bystander, false)).toEqual({ rerun: true })
    // Ended again while it ran again: it fails then.
    expect(trialVerdict(end, bystander, true)).toMatchObject({ rerun: false, error: { code: "OPENCODE_EXITED" } })
    end.rerun = 1
    end.next = { started: true }
    expect(exitProblem(end)).toEqual({
      code: "OPENCODE_EXITED",
      message: `${line}; 1 other trial running then ran again; opencode was started again for the trials left`,
    })
  })

  it("with no tool run for real, fails every trial running then and says something else ended opencode", () => {
    const one = trial("a")
    const two = trial("b", [], "without greet")
    const end: EndedServer = { exit: { code: null, signal: "SIGKILL" }, during: [one, two], rerun: 0 }
    const verdict = trialVerdict(end, two, false)
    expect(verdict).toEqual({
      rerun: false,
      error: {
        code: "OPENCODE_EXITED",
        message:
          'opencode was ended by SIGKILL while case "a" (run 1 on keyword/alpha) and case "b" (run 1 on keyword/alpha, without greet) ran, and no tool ran for real (a case\'s "execute"): something outside the eval ended it (out of memory?)',
      },
    })
    end.next = { started: false, reason: "opencode serve did not start for the eval: port in use" }
    expect(exitProblem(end).message).toMatch(
      /\(out of memory\?\); opencode did not start again \(opencode serve did not start for the eval: port in use\), so the trials left failed$/,
    )
    expect(notRestartedError(end, "port in use")).toEqual({
      code: "OPENCODE_FAILED",
      message: "opencode was ended by SIGKILL during an earlier trial and did not start again: port in use",
    })
  })

  it("names every trial that ran a tool for real, and says one of their tools ended opencode", () => {
    const end: EndedServer = {
      exit: { code: 1, signal: null },
      during: [trial("a", ["quit", "greet"]), trial("b", ["weather"])],
      rerun: 0,
    }
    expect(exitProblem(end).message).toBe(
      'opencode exited (exit code 1) while case "a" (run 1 on keyword/alpha) ran quit, greet for real and case "b" (run 1 on keyword/alpha) ran weather for real (their cases\' "execute"): one of those tools ended opencode\'s process, as process.exit or a kill in a tool does (tool-tester run reports it as TOOL_EXITED)',
    )
  })
})
