// evalSuite()'s options are checked before anything runs: a mistake is one USAGE error naming the
// option (a string for models ended in "requested.every is not a function"; a threshold of 80, the
// CLI's way to write 80%, made a gate of 8000%; runs: 0 was taken).
import path from "node:path"
import { describe, expect, test } from "vitest"
import { evalSuite } from "../../src/vitest/eval-suite.ts"
import { evalSuiteBound, evalSuiteDirectory } from "../../src/vitest/eval-suite-options.ts"

const refused = (option: string, message: string) => ({
  code: "USAGE",
  message: `evalSuite: ${option} ${message}`,
  data: { option },
})

describe("evalSuite's options", () => {
  test("each wrong option is a USAGE error naming it, and what it takes", async () => {
    await expect(evalSuite({ models: "anthropic/claude-sonnet-4-5" as never })).rejects.toMatchObject(
      refused(
        "models",
        'must be an array of provider/model ids, such as ["anthropic/claude-sonnet-4-5"], not "anthropic/claude-sonnet-4-5"',
      ),
    )
    await expect(evalSuite({ models: [""] })).rejects.toMatchObject({ data: { option: "models" } })
    // Not provider/model: said before anything starts, not as EVAL_MODEL_UNKNOWN once opencode is up.
    await expect(evalSuite({ models: ["anthropic/claude-sonnet-4-5", "gpt-5"] })).rejects.toMatchObject(
      refused(
        "models",
        'must be an array of provider/model ids, such as ["anthropic/claude-sonnet-4-5"], not ["anthropic/claude-sonnet-4-5","gpt-5"]',
      ),
    )
    await expect(evalSuite({ cases: "paris" as never })).rejects.toMatchObject(
      refused("cases", 'must be an array of case names, not "paris"'),
    )
    await expect(evalSuite({ runs: 0 })).rejects.toMatchObject(
      refused("runs", "must be a whole number of at least 1, not 0"),
    )
    await expect(evalSuite({ concurrency: 1.5 })).rejects.toMatchObject(
      refused("concurrency", "must be a whole number of at least 1, not 1.5"),
    )
    await expect(evalSuite({ threshold: 80 })).rejects.toMatchObject(
      refused("threshold", "must be a pass rate from 0 to 1 (0.8 for 80%), not 80"),
    )
    await expect(evalSuite({ threshold: -0.1 })).rejects.toMatchObject(
      refused("threshold", "must be a pass rate from 0 to 1, not -0.1"),
    )
    // A key it does not take, written as the CLI's flag would be: the configured model would run.
    await expect(evalSuite({ model: "anthropic/claude-sonnet-4-5" } as never)).rejects.toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(/^evalSuite has no option "model"; did you mean "models"\?: it takes directory, /),
      data: { option: "model" },
    })
    await expect(evalSuite(null as never)).rejects.toMatchObject({ code: "USAGE", data: { option: "options" } })
  })
})

describe("evalSuite's bound on the whole run", () => {
  test("counts a case's own runs: ten runs on two models, one at a time, are twenty trial bounds after opencode's start", () => {
    expect(evalSuiteBound([{ runs: 10 }], { models: ["a/x", "b/y"], concurrency: 1, timeoutMs: 1000 })).toBe(
      120_000 + 20 * 1000,
    )
    // A case without runs takes the option's, else 1; no models: the configured one.
    expect(evalSuiteBound([{}, { runs: 3 }], { runs: 2, concurrency: 5, timeoutMs: 1000 })).toBe(120_000 + 1000)
    expect(evalSuiteBound([{}], {})).toBe(120_000 + 120_000)
    expect(evalSuiteBound([{ runs: 1e9 }], {})).toBe(2_000_000_000)
  })
})

describe("evalSuite's project", () => {
  test("run inside .opencode (npm test --prefix .opencode), the project is its parent, as for the CLI; a directory given is taken as it is", () => {
    const project = path.resolve("/work", "app")
    expect(evalSuiteDirectory(undefined, project)).toBe(project)
    expect(evalSuiteDirectory(undefined, path.join(project, ".opencode"))).toBe(project)
    expect(evalSuiteDirectory(".opencode", project)).toBe(path.join(project, ".opencode"))
    expect(evalSuiteDirectory(project, path.join(project, ".opencode"))).toBe(project)
  })
})
