// evalSuite()'s options are checked before anything runs: a mistake is one USAGE error naming the
// option (a string for models ended in "requested.every is not a function"; a threshold of 80, the
// CLI's way to write 80%, made a gate of 8000%; runs: 0 was taken).
import { describe, expect, test } from "vitest"
import { evalSuite } from "../../src/vitest/eval-suite.ts"

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
