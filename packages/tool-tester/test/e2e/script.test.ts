import { describe, expect, it } from "vitest"
import { argumentText, parseScript, parseScriptText } from "../../src/e2e/script.ts"
import { ToolTesterError } from "../../src/errors.ts"

function problem(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    if (ToolTesterError.isInstance(error) && error.code === "SCRIPT_INVALID") return error.message
    throw error
  }
  throw new Error("expected SCRIPT_INVALID")
}

describe("e2e scripts", () => {
  it("accepts the object form with a prompt, tool calls, raw arguments and text", () => {
    const script = parseScript({
      prompt: "go",
      turns: [
        {
          calls: [
            { tool: "x", args: { a: 1 } },
            { tool: "y", rawArgs: "{not json", id: "mine" },
          ],
        },
        { text: "done" },
      ],
    })
    expect(script.prompt).toBe("go")
    expect(script.turns).toHaveLength(2)
  })

  it("accepts a bare list of turns", () => {
    expect(parseScript([{ text: "hi" }])).toEqual({ turns: [{ text: "hi" }] })
  })

  it("reads a file that starts with a UTF-8 byte order mark, as Windows editors write one", () => {
    expect(parseScriptText('\uFEFF[{"text":"hi"}]')).toEqual({ turns: [{ text: "hi" }] })
    expect(parseScriptText('\uFEFF{"prompt":"go","turns":[]}')).toEqual({ prompt: "go", turns: [] })
  })

  it("sends args as JSON and rawArgs verbatim", () => {
    expect(argumentText({ tool: "x", args: { a: 1 } })).toBe('{"a":1}')
    expect(argumentText({ tool: "x", rawArgs: "" })).toBe("")
    expect(argumentText({ tool: "x" })).toBe("{}")
  })

  it("rejects malformed scripts with a one-line message that points at the problem", () => {
    expect(problem(() => parseScriptText("{"))).toMatch(/^Invalid e2e script: not valid JSON/)
    expect(problem(() => parseScript({ turns: {} }))).toBe("Invalid e2e script: `turns` must be a list of turns.")
    expect(problem(() => parseScript([{}]))).toBe("Invalid e2e script: turns[0] needs `calls` or `text`.")
    expect(problem(() => parseScript([{ calls: [{ tool: "x", args: {}, rawArgs: "" }] }]))).toBe(
      "Invalid e2e script: turns[0].calls[0]: give `args` or `rawArgs`, not both.",
    )
    expect(problem(() => parseScript([{ calls: [{ name: "x" }] }]))).toBe(
      "Invalid e2e script: turns[0].calls[0] has an unknown key `name` (allowed: tool, args, rawArgs, id).",
    )
    expect(problem(() => parseScript([{ calls: [] }]))).toBe(
      "Invalid e2e script: turns[0].calls must be a non-empty list.",
    )
    for (const message of [problem(() => parseScript(null)), problem(() => parseScript([{ text: 1 }]))]) {
      expect(message).not.toContain("\n")
    }
  })
})
