// runEvalTrials against the real opencode binary, offline: the keyword model (test/support) as the
// user's own provider, in a throw-away HOME whose config enables only the test providers.

import { existsSync, readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { EvalRunnerResult } from "../../src/eval/runner/index.ts"
import { runEvalTrials } from "../../src/eval/runner/index.ts"
import type { EvalCase, EvalTrial } from "../../src/eval-cases/types.ts"
import { evalProcesses, type EvalHome, makeEvalHome } from "../support/eval-home.ts"
import { type KeywordModel, rateLimitMessage, startKeywordModel } from "../support/keyword-model.ts"

const project = fileURLToPath(new URL("../fixtures/eval-project", import.meta.url))

const cases: EvalCase[] = [
  {
    name: "stated result",
    prompt: 'What is the weather forecast in city="Paris"?',
    results: { weather: "Rainy in Paris, 12 degrees (stated by the case)" },
  },
  { name: "stand-in result", prompt: "weather forecast for city=Rome please" },
  { name: "executed", prompt: "weather forecast for city=Lyon please", execute: ["weather"] },
  { name: "numbers", prompt: "add the numbers a=2 b=3", results: { math_add: "5" } },
  {
    name: "follow-up",
    prompt: "weather forecast for city=Nice",
    turns: [{ prompt: "now add numbers a=1 b=1" }],
    results: { weather: "Windy", math_add: "2" },
  },
  { name: "no tool", prompt: "[no-tool] what is the weather forecast in city=Paris" },
  { name: "loop", prompt: "[loop] weather forecast city=Oslo", maxCalls: 3 },
  { name: "rate limited", prompt: "[rate-limit] weather forecast city=Bern" },
  { name: "global tool", prompt: "greet the visitor please" },
  { name: "plugin tool refused", prompt: "stamp the seal on document=contract" },
  { name: "plugin tool allowed", prompt: "stamp the seal on document=invoice", execute: ["stamp"] },
  { name: "asks permission", prompt: "webfetch the page url=http://127.0.0.1:9/page" },
]

// A tool of the user's global config folder (no imports: the throw-away home has no node_modules).
const greetTool = `export default {
  description: "Greet the visitor at the door",
  args: {},
  async execute() {
    const { appendFileSync } = await import("node:fs")
    if (process.env.EVAL_TEST_SIDE_EFFECT) appendFileSync(process.env.EVAL_TEST_SIDE_EFFECT, "greet\\n")
    return "Hello (really run)"
  },
}
`

let keyword: KeywordModel
let home: EvalHome
let result: EvalRunnerResult
const reported: EvalTrial[] = []

function trial(name: string, model = "keyword/alpha"): EvalTrial {
  const found = result.trials.find((candidate) => candidate.case === name && candidate.model === model)
  if (found === undefined) throw new Error(`no trial of ${name} on ${model}`)
  return found
}

describe("runEvalTrials with the keyword model", () => {
  beforeAll(async () => {
    keyword = await startKeywordModel()
    home = makeEvalHome({
      providers: { keyword: { baseURL: keyword.baseURL, models: ["alpha", "beta"] } },
      model: "keyword/alpha",
      auth: { keyword: { type: "api", key: "from-auth-json" } },
      globalTools: { "greet.js": greetTool },
      // Left at "ask" by the user: nobody is there to answer, so the eval answers "reject".
      config: { permission: { webfetch: "ask" } },
    })
    home.use(vi.stubEnv)
    result = await runEvalTrials({
      directory: project,
      cases,
      models: ["keyword/alpha", "keyword/beta", "keyword/alpah"],
      concurrency: 4,
      timeoutMs: 90_000,
      onTrial: (done) => reported.push(done),
    })
  }, 400_000)

  afterAll(async () => {
    vi.unstubAllEnvs()
    await keyword?.close()
    home?.remove()
  })

  it("passes a case through to a trial with the call and its arguments", () => {
    const stated = trial("stated result")
    expect(stated.error).toBeUndefined()
    expect(stated.turns).toHaveLength(1)
    expect(stated.turns[0]?.prompt).toBe(cases[0]?.prompt)
    expect(stated.turns[0]?.calls.map((call) => [call.tool, call.args, call.status])).toEqual([
      ["weather", { city: "Paris" }, "completed"],
    ])
    expect(trial("numbers").turns[0]?.calls[0]).toMatchObject({ tool: "math_add", args: { a: 2, b: 3 } })
    expect(stated.tokens?.input).toBeGreaterThan(0)
    expect(stated.durationMs).toBeGreaterThan(0)
  })

  it("answers a call with the case's stated result, and the model reads it", () => {
    const stated = trial("stated result")
    expect(stated.turns[0]?.calls[0]?.output).toBe("Rainy in Paris, 12 degrees (stated by the case)")
    expect(stated.turns[0]?.text).toBe("weather said: Rainy in Paris, 12 degrees (stated by the case)")
  })

  it("does not run the user's tool unless the case says so", () => {
    const standIn = trial("stand-in result").turns[0]?.calls[0]
    expect(standIn?.output).toMatch(/recorded and not run/)
    const executed = trial("executed").turns[0]?.calls[0]
    expect(executed?.output).toBe("Sunny in Lyon, 21 degrees (really run)")
    // The global config folder's tools are wrapped too.
    expect(trial("global tool").turns[0]?.calls[0]).toMatchObject({
      tool: "greet",
      status: "completed",
      output: expect.stringMatching(/recorded and not run/),
    })
    // Only the executed cases ran a tool, once per model (alpha and beta).
    const ran = readFileSync(home.sideEffectFile, "utf8").split("\n").filter(Boolean).sort()
    expect(ran).toEqual(["Lyon", "Lyon", "stamp invoice", "stamp invoice"])
  })

  it("refuses a plugin's tool unless the case's execute names it", () => {
    expect(trial("plugin tool refused").turns[0]?.calls[0]).toMatchObject({
      tool: "stamp",
      args: { document: "contract" },
      status: "error",
      error: expect.stringContaining("Not run by tool-tester eval: stamp is a plugin's tool"),
    })
    expect(trial("plugin tool allowed").turns[0]?.calls[0]).toMatchObject({
      tool: "stamp",
      status: "completed",
      output: "Stamped invoice",
    })
  })

  it("rejects a permission request instead of waiting for an answer", () => {
    const asked = trial("asks permission")
    expect(asked.error).toBeUndefined()
    expect(asked.turns[0]?.calls[0]).toMatchObject({ tool: "webfetch", status: "error" })
    expect(asked.turns[0]?.text).toMatch(/^webfetch said: /)
  })

  it("runs follow-up turns in the same session", () => {
    const followUp = trial("follow-up")
    expect(followUp.turns.map((turn) => turn.calls.map((call) => call.tool))).toEqual([["weather"], ["math_add"]])
    expect(followUp.turns[1]?.text).toBe("math_add said: 2")
  })

  it("records a model that calls no tool, a loop and a rate limit, with the provider's message", () => {
    const noTool = trial("no tool")
    expect(noTool.error).toBeUndefined()
    expect(noTool.turns[0]?.calls).toEqual([])
    expect(noTool.turns[0]?.text).toBe("I can answer that without a tool.")
    const loop = trial("loop")
    expect(loop.error?.code).toBe("LOOP")
    expect(loop.turns[0]?.calls.length).toBeGreaterThan(3)
    const limited = trial("rate limited")
    expect(limited.error?.code).toBe("RATE_LIMITED")
    expect(limited.error?.message).toContain(rateLimitMessage)
  })

  it("runs two models side by side in one server, and names an unknown one with did-you-mean", () => {
    for (const evalCase of cases) {
      expect(trial(evalCase.name, "keyword/beta").turns.length).toBeGreaterThan(0)
    }
    expect(result.trials.filter((done) => done.model === "keyword/alpah")).toEqual([])
    expect(result.problems).toEqual([
      expect.objectContaining({
        code: "EVAL_MODEL_UNKNOWN",
        model: "keyword/alpah",
        message: expect.stringContaining('did you mean "keyword/alpha"?'),
      }),
    ])
    expect(result.trials).toHaveLength(cases.length * 2)
    expect(reported).toHaveLength(result.trials.length)
    expect(new Set(keyword.requests.map((request) => request.model))).toEqual(new Set(["alpha", "beta"]))
  })

  it("reports the tools each model is offered, with the write and run built-ins left out", () => {
    const offered = result.tools["keyword/alpha"]?.map((tool) => tool.id) ?? []
    expect(offered).toEqual(expect.arrayContaining(["weather", "math_add", "read"]))
    for (const denied of ["bash", "edit", "write", "question", "invalid"]) expect(offered).not.toContain(denied)
    expect(result.tools["keyword/alpha"]?.find((tool) => tool.id === "weather")).toMatchObject({
      description: "Get the current weather forecast for a city",
      parameters: { properties: { city: { type: "string", description: "The city name" } } },
    })
    expect(result.opencodeVersion).toMatch(/^\d+\.\d+\.\d+/)
  })

  it("leaves nothing running and no folder behind", () => {
    expect(evalProcesses(home)).toEqual([])
    expect(readdirSync(home.tmp)).toEqual([])
    expect(existsSync(home.sideEffectFile)).toBe(true)
  })
})
