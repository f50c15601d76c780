// runEvalTrials when things go wrong, against the real opencode binary, offline: a provider that
// is unreachable next to e2e's scripted mock model, a key the provider refuses, a tool that never
// finishes, the concurrency bound, an abort. Each ends as a recorded trial error (with the
// provider's own message) or a rejection, and nothing the eval started is left.

import { readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it, vi } from "vitest"
import { startMockModel } from "../../src/e2e/mock-model.ts"
import { runEvalTrials } from "../../src/eval/runner/index.ts"
import { evalProcesses, type EvalHome, makeEvalHome } from "../support/eval-home.ts"
import { startKeywordModel, unauthorizedMessage } from "../support/keyword-model.ts"

const project = fileURLToPath(new URL("../fixtures/eval-project", import.meta.url))
// A tool of the user's global config folder that ends its process, which in opencode is opencode's.
const quitTool = `export default {
  description: "Quit the program now",
  args: {},
  async execute() {
    process.exit(3)
  },
}
`
const cleanups: Array<() => Promise<void> | void> = []

afterEach(async () => {
  vi.unstubAllEnvs()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** This test's user: the keyword model (model `keyword/alpha`) as their only provider, and their global tools. */
async function keywordUser(model?: string, globalTools?: Record<string, string>): Promise<EvalHome> {
  const keyword = await startKeywordModel()
  cleanups.push(() => keyword.close())
  const home = makeEvalHome({
    providers: { keyword: { baseURL: keyword.baseURL, models: ["alpha"] } },
    ...(model === undefined ? {} : { model }),
    ...(globalTools === undefined ? {} : { globalTools }),
  })
  cleanups.push(() => home.remove())
  home.use(vi.stubEnv)
  return home
}

function expectNothingLeft(home: EvalHome): void {
  expect(evalProcesses(home)).toEqual([])
  expect(readdirSync(home.tmp)).toEqual([])
}

describe("runEvalTrials when a provider fails", () => {
  it("records an unreachable provider with its message, next to the scripted model in the same server", async () => {
    const mock = await startMockModel({
      script: { turns: [{ calls: [{ tool: "weather", args: { city: "Paris" } }] }, { text: "It is rainy." }] },
    })
    cleanups.push(() => mock.close())
    const home = makeEvalHome({
      providers: {
        mock: { baseURL: mock.baseURL, models: ["mock-model"] },
        down: { baseURL: "http://127.0.0.1:9/v1", models: ["model"] },
      },
    })
    cleanups.push(() => home.remove())
    home.use(vi.stubEnv)
    const result = await runEvalTrials({
      directory: project,
      cases: [{ name: "weather", prompt: "weather in Paris?", results: { weather: "Rainy, 12 degrees" } }],
      models: ["mock/mock-model", "down/model"],
      timeoutMs: 90_000,
    })
    const [scripted, down] = result.trials
    expect(scripted).toMatchObject({ model: "mock/mock-model", run: 1 })
    expect(scripted?.error).toBeUndefined()
    expect(scripted?.turns).toEqual([
      {
        prompt: "weather in Paris?",
        calls: [{ tool: "weather", args: { city: "Paris" }, status: "completed", output: "Rainy, 12 degrees" }],
        text: "It is rainy.",
        // Each turn's time and tokens, what per-turn budgets are checked against (issue 37).
        durationMs: expect.any(Number),
        tokens: expect.objectContaining({ input: expect.any(Number), output: expect.any(Number) }),
      },
    ])
    expect(down).toMatchObject({ model: "down/model", turns: [{ prompt: "weather in Paris?", calls: [], text: "" }] })
    expect(down?.error?.code).toBe("PROVIDER_UNREACHABLE")
    expect(down?.error?.message).toMatch(/Unable to connect/)
    expect(result.problems).toEqual([])
    expectNothingLeft(home)
  }, 300_000)

  // One opencode run (each start costs seconds of CPU), one trial at a time, on the configured
  // model: the refused key first, then the tool that ends opencode's process, and the one that
  // never ends then runs (and is stopped) on the new opencode the eval starts for it. The refused
  // key ends on its own well inside the bound the tool that never ends waits out by design.
  it("records a refused key as AUTH_ERROR on the configured model, a tool that ends opencode's process as OPENCODE_EXITED, and a tool that never ends as TIMEOUT on a new opencode", async () => {
    const home = await keywordUser("keyword/alpha", { "quit.js": quitTool })
    const result = await runEvalTrials({
      directory: project,
      cases: [
        { name: "refused key", prompt: "[unauthorized] weather forecast city=Bern" },
        { name: "ends opencode", prompt: "quit the program now", execute: ["quit"] },
        { name: "never ends", prompt: "freeze the glacier", execute: ["hang"] },
      ],
      models: [],
      concurrency: 1,
      // The tool that never ends waits this out by design; it must first be called, by an opencode
      // just started again, whose first prompt loads the tools: under load (two suites beside each
      // other, load average 17) that took over 20 s once, and the trial ended with no call at all.
      timeoutMs: 60_000,
    })
    expect(result.trials.map((trial) => [trial.case, trial.model, trial.error?.code])).toEqual([
      ["refused key", "keyword/alpha", "AUTH_ERROR"],
      ["ends opencode", "keyword/alpha", "OPENCODE_EXITED"],
      ["never ends", "keyword/alpha", "TIMEOUT"],
    ])
    expect(result.trials[0]?.error?.message).toContain(unauthorizedMessage)
    const exited =
      'opencode exited (exit code 3) while case "ends opencode" (run 1 on keyword/alpha) ran quit for real (the case\'s "execute"): the tool ended opencode\'s process, as process.exit or a kill in a tool does (tool-tester run reports it as TOOL_EXITED)'
    expect(result.trials[1]?.error?.message).toBe(exited)
    expect(result.problems).toEqual([
      { code: "OPENCODE_EXITED", message: `${exited}; opencode was started again for the trials left` },
    ])
    expect(result.trials[2]?.turns[0]?.calls[0]?.tool).toBe("hang")
    expectNothingLeft(home)
  }, 300_000)
})

describe("runEvalTrials concurrency and abort", () => {
  it("runs trials concurrently up to the bound", async () => {
    const home = await keywordUser()
    const result = await runEvalTrials({
      directory: project,
      // Each call waits (up to 8 s) for three calls at once: with two trials in flight it sees two.
      // The third call starts after one of them ended, so it does not wait (total=3).
      cases: [{ name: "gather", prompt: "gather participants want=3 total=3", execute: ["gather"], runs: 3 }],
      models: ["keyword/alpha"],
      concurrency: 2,
      timeoutMs: 90_000,
    })
    expect(result.trials.map((trial) => trial.run)).toEqual([1, 2, 3])
    const seen = result.trials.map((trial) => trial.turns[0]?.calls[0]?.output)
    expect(new Set(seen)).toEqual(new Set(["most at once: 2"]))
    expectNothingLeft(home)
  }, 300_000)

  it("rejects with the abort reason when aborted, and leaves nothing behind", async () => {
    const home = await keywordUser()
    const controller = new AbortController()
    const run = runEvalTrials({
      directory: project,
      cases: [{ name: "never ends", prompt: "freeze the glacier", execute: ["hang"] }],
      models: ["keyword/alpha"],
      timeoutMs: 120_000,
      signal: controller.signal,
      onProgress: (phase) => {
        if (phase.startsWith("running")) setTimeout(() => controller.abort(new Error("stop the eval")), 3000)
      },
    })
    await expect(run).rejects.toThrow("stop the eval")
    expectNothingLeft(home)
  }, 300_000)
})
