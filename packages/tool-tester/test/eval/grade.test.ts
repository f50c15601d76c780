import { describe, expect, test } from "vitest"
import { gradeTrial } from "../../src/eval-cases/index.ts"
import type { EvalCase, EvalTrial, ObservedCall, TurnRecord } from "../../src/eval-cases/types.ts"

function call(tool: string, args: unknown, status: ObservedCall["status"] = "completed"): ObservedCall {
  return { tool, args, status }
}

function trial(turns: Array<Partial<TurnRecord>>, extra: Partial<EvalTrial> = {}): EvalTrial {
  return {
    case: "c",
    model: "mock/model",
    run: 1,
    durationMs: 10,
    turns: turns.map((turn) => ({ prompt: "p", calls: [], text: "", ...turn })),
    ...extra,
  }
}

const weather: EvalCase = {
  name: "paris",
  prompt: "What is the weather in Paris?",
  expect: { calls: [{ tool: "weather", args: { city: /^par/i } }], notCalled: ["bash", "webfetch"] },
}

describe("gradeTrial", () => {
  test("passes a trial that makes the expected call and no forbidden one", () => {
    const grade = gradeTrial(weather, trial([{ calls: [call("weather", { city: "Paris", units: "metric" })] }]))
    expect(grade).toEqual({ pass: true, reasons: [] })
  })

  test("says what was called instead, with the arguments, when another tool was used", () => {
    const grade = gradeTrial(weather, trial([{ calls: [call("bash", { command: "curl wttr.in/Paris" })] }]))
    expect(grade.pass).toBe(false)
    expect(grade.reasons).toEqual([
      'expected weather({city: /^par/i}); called bash({command: "curl wttr.in/Paris"})',
      'bash must not be called; called bash({command: "curl wttr.in/Paris"})',
    ])
  })

  test("says which argument differed when the expected tool got other arguments", () => {
    const grade = gradeTrial(weather, trial([{ calls: [call("weather", { city: "London" })] }]))
    expect(grade.reasons).toEqual([
      'expected weather({city: /^par/i}); called weather({city: "London"}) (city: expected /^par/i, got "London")',
    ])
  })

  test("quotes the model's answer, cut to one short line, when no tool was called", () => {
    const text = `I cannot check the weather.\nBut Paris is usually mild in spring. ${"x".repeat(200)}`
    const grade = gradeTrial(weather, trial([{ text }]))
    expect(grade.reasons).toHaveLength(1)
    const [reason] = grade.reasons
    expect(reason).toMatch(
      /^expected weather\(\{city: \/\^par\/i\}\); no tool was called; the model answered: "I cannot check the weather\. But Paris/,
    )
    expect(reason).not.toContain("\n")
    expect(reason!.length).toBeLessThan(200)
    expect(reason).toContain("…")
  })

  test("says the model answered nothing when it neither called a tool nor wrote text", () => {
    expect(gradeTrial(weather, trial([{}])).reasons).toEqual([
      "expected weather({city: /^par/i}); no tool was called and the model answered nothing",
    ])
  })

  test("fails a trial that ended in an error with the error as its reason", () => {
    const grade = gradeTrial(
      weather,
      trial([], { error: { code: "RATE_LIMITED", message: "429 Too Many Requests: slow down" } }),
    )
    expect(grade).toEqual({ pass: false, reasons: ["RATE_LIMITED: 429 Too Many Requests: slow down"] })
  })

  test("fails a call opencode rerouted to invalid, saying the arguments were rejected", () => {
    const rerouted = call("invalid", {
      tool: "weather",
      error: "JSON parsing failed: Text: {city.\nError message: JSON Parse error",
    })
    const grade = gradeTrial(weather, trial([{ calls: [rerouted] }]))
    expect(grade.reasons).toEqual([
      "expected weather({city: /^par/i}); arguments rejected by opencode: weather: JSON parsing failed: Text: {city. Error message: JSON Parse error",
    ])
  })

  test("fails a rerouted call even when a later call got it right", () => {
    const rerouted = call("invalid", { tool: "Weathr", error: "Model tried to call unavailable tool 'Weathr'." })
    const grade = gradeTrial(weather, trial([{ calls: [rerouted, call("weather", { city: "paris" })] }]))
    expect(grade.reasons).toEqual([
      "unavailable tool: the model called Weathr, which it was not offered (opencode rerouted the call to invalid)",
    ])
  })

  test("names a call to an unknown tool by the name the model used, then why opencode rejected it", () => {
    const error = "Model tried to call unavailable tool 'get_weather'. Available tools: bash, weather."
    const grade = gradeTrial(weather, trial([{ calls: [call("invalid", { tool: "get_weather", error })] }]))
    expect(grade.reasons).toEqual(["expected weather({city: /^par/i}); called get_weather (an unavailable tool)"])
  })

  test("forbids every tool not expected with notCalled *", () => {
    const evalCase: EvalCase = { name: "c", prompt: "p", expect: { calls: [{ tool: "weather" }], notCalled: ["*"] } }
    const grade = gradeTrial(
      evalCase,
      trial([
        {
          calls: [call("weather", { city: "Paris" }), call("read", { filePath: "a" }), call("read", { filePath: "b" })],
        },
      ]),
    )
    expect(grade.reasons).toEqual(['no other tool may be called; called read({filePath: "a"}) (2 times)'])
  })

  test("matches each expected call with a call of its own", () => {
    const evalCase: EvalCase = {
      name: "c",
      prompt: "p",
      expect: {
        calls: [
          { tool: "weather", args: { city: { $any: true } } },
          { tool: "weather", args: { city: "Paris" } },
        ],
      },
    }
    // The first expectation would take the Paris call if matched greedily; each still finds one.
    const two = trial([{ calls: [call("weather", { city: "Paris" }), call("weather", { city: "Rome" })] }])
    expect(gradeTrial(evalCase, two)).toEqual({ pass: true, reasons: [] })
    const one = trial([{ calls: [call("weather", { city: "Paris" })] }])
    expect(gradeTrial(evalCase, one).pass).toBe(false)
  })

  test("with ordered, needs the expected calls in that order, other calls between allowed", () => {
    const evalCase: EvalCase = {
      name: "c",
      prompt: "p",
      expect: { calls: [{ tool: "search" }, { tool: "fetch" }], ordered: true },
    }
    const inOrder = trial([{ calls: [call("search", {}), call("read", {}), call("fetch", {})] }])
    expect(gradeTrial(evalCase, inOrder).pass).toBe(true)
    const reversed = trial([{ calls: [call("fetch", {}), call("search", {})] }])
    expect(gradeTrial(evalCase, reversed).reasons).toEqual(["expected fetch in order; called fetch({}), search({})"])
    // Without ordered, the same calls pass.
    expect(gradeTrial({ ...evalCase, expect: { ...evalCase.expect, ordered: false } }, reversed).pass).toBe(true)
  })

  test("grades each turn against its own expectation and names the turn", () => {
    const evalCase: EvalCase = {
      name: "c",
      prompt: "weather in Paris",
      expect: { calls: [{ tool: "weather" }] },
      turns: [{ prompt: "and in Rome?", expect: { calls: [{ tool: "weather", args: { city: "Rome" } }] } }],
    }
    const good = trial([
      { calls: [call("weather", { city: "Paris" })] },
      { calls: [call("weather", { city: "Rome" })] },
    ])
    expect(gradeTrial(evalCase, good).pass).toBe(true)
    const bad = trial([{ calls: [call("weather", { city: "Paris" })] }, { text: "Same as Paris." }])
    expect(gradeTrial(evalCase, bad).reasons).toEqual([
      'turn 2: expected weather({city: "Rome"}); no tool was called; the model answered: "Same as Paris."',
    ])
    const short = trial([{ calls: [call("weather", { city: "Paris" })] }])
    expect(gradeTrial(evalCase, short).reasons).toEqual(["turn 2: the turn was not run (the trial recorded 1 of 2)"])
  })

  test("passes a case with no expectation whatever the model did", () => {
    expect(gradeTrial({ name: "c", prompt: "p" }, trial([{ calls: [call("bash", {})] }])).pass).toBe(true)
  })

  test("counts a call whose tool failed as made: the model chose it with those arguments", () => {
    const failed: ObservedCall = { ...call("weather", { city: "Paris" }, "error"), error: "service down" }
    expect(gradeTrial(weather, trial([{ calls: [failed] }])).pass).toBe(true)
  })

  test("fails the grade with the message of a predicate that throws", () => {
    const evalCase: EvalCase = {
      name: "c",
      prompt: "p",
      expect: {
        calls: [
          {
            tool: "weather",
            args: {
              city: function isParis(value: unknown) {
                if (typeof value !== "string") throw new Error("city is not a string")
                return value === "Paris"
              },
            },
          },
        ],
      },
    }
    const grade = gradeTrial(evalCase, trial([{ calls: [call("weather", { city: 3 })] }]))
    expect(grade.reasons).toEqual([
      "expected weather({city: isParis}): city: the predicate threw: city is not a string",
    ])
  })

  test("keeps every reason on one line, however long or multi-line the arguments", () => {
    const long = { command: `echo ${"a".repeat(500)}\nrm -rf /`, nested: { a: { b: { c: { d: { e: 1 } } } } } }
    const grade = gradeTrial(weather, trial([{ calls: [call("bash", long)] }]))
    for (const reason of grade.reasons) {
      expect(reason).not.toMatch(/\n/)
      expect(reason.length).toBeLessThan(250)
    }
  })
})
