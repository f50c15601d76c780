import path from "node:path"
import { describe, expect, test } from "vitest"
import { loadEvalCases } from "../../src/eval-cases/index.ts"
import { useTmpDir, writeFiles } from "../helpers.ts"

const evals = path.join(".opencode", "evals")
const file = (name: string) => path.join(evals, name)

async function load(files: Record<string, string>, toolIds?: string[]) {
  const directory = useTmpDir("tool-tester-evals-")
  writeFiles(directory, files)
  return loadEvalCases(directory, toolIds ? { toolIds } : {})
}

/** A JSON file with one item per line, so each key's line is known. */
const weatherFile = `{
  "$schema": "https://example.com/evals.json",
  "//": "a note for whoever edits this file",
  "cases": [
    {
      "name": "paris",
      "prompt": "What is the weather in Paris?",
      "expect": {
        "calls": [{ "tool": "weather", "args": { "city": { "$regex": "^par", "$flags": "i" } } }],
        "notCalled": ["bash", "webfetch"]
      },
      "runs": 3
    },
    {
      "name": "rome",
      "prompt": "And Rome?",
      "expect": { "calls": [{ "tool": "weather", "args": { "city": "Rome" } }] }
    }
  ]
}
`

describe("loadEvalCases", () => {
  test("reads { cases } files and plain arrays, in file name order, with where each case was read", async () => {
    const { cases, problems } = await load({
      [file("weather.json")]: weatherFile,
      [file("a-math.json")]: `[{ "name": "add", "prompt": "1+1?", "expect": { "calls": [{ "tool": "math_add" }] } }]\n`,
      [file("history.jsonl")]: "not a case file\n",
      [file("notes.md")]: "# not a case file\n",
    })
    expect(problems).toEqual([])
    expect(cases.map((entry) => entry.name)).toEqual(["add", "paris", "rome"])
    expect(cases[1]).toEqual({
      name: "paris",
      prompt: "What is the weather in Paris?",
      expect: {
        calls: [{ tool: "weather", args: { city: { $regex: "^par", $flags: "i" } } }],
        notCalled: ["bash", "webfetch"],
      },
      runs: 3,
      source: { file: file("weather.json"), line: 5 },
    })
    expect(cases[2]!.source).toEqual({ file: file("weather.json"), line: 14 })
  })

  test("finds nothing, and no problem, when the project has no evals folder", async () => {
    expect(await load({ "README.md": "hi" })).toEqual({ cases: [], problems: [] })
  })

  test("reads another folder when asked, relative to the project", async () => {
    const directory = useTmpDir("tool-tester-evals-")
    writeFiles(directory, { "evals/x.json": `[{ "name": "x", "prompt": "p" }]` })
    const { cases, problems } = await loadEvalCases(directory, { folder: "evals" })
    expect(problems).toEqual([])
    expect(cases.map((entry) => entry.name)).toEqual(["x"])
  })

  test("names the file, line and column of a JSON syntax error, and still loads the other files", async () => {
    const { cases, problems } = await load({
      [file("broken.json")]: `[\n  { "name": "a", "prompt": "p" }\n  { "name": "b", "prompt": "p" }\n]\n`,
      [file("good.json")]: `[{ "name": "good", "prompt": "p" }]`,
    })
    expect(cases.map((entry) => entry.name)).toEqual(["good"])
    expect(problems).toEqual([
      {
        code: "EVAL_CASE_INVALID",
        file: file("broken.json"),
        line: 3,
        message: `${file("broken.json")}:3:3: not valid JSON: comma expected`,
      },
    ])
  })

  test("a bad $regex is a problem on its line, with the key path and the reason; the file's other cases load", async () => {
    const text = weatherFile.replace('"^par"', '"^(par"')
    const { cases, problems } = await load({ [file("weather.json")]: text })
    expect(cases.map((entry) => entry.name)).toEqual(["rome"])
    expect(problems).toEqual([
      {
        code: "EVAL_CASE_INVALID",
        file: file("weather.json"),
        line: 9,
        key: "cases[0].expect.calls[0].args.city",
        case: "paris",
        message: `${file("weather.json")}:9: cases[0].expect.calls[0].args.city: "$regex" is not a valid regular expression (Unterminated group)`,
      },
    ])
  })

  test("an unknown key is a problem with the key meant", async () => {
    const { problems } = await load({
      [file("a.json")]: `[\n  {\n    "name": "a",\n    "prompt": "p",\n    "expct": { "calls": [] }\n  }\n]\n`,
    })
    expect(problems.map((problem) => problem.message)).toEqual([
      `${file("a.json")}:5: cases[0].expct: unknown key "expct"; did you mean "expect"?`,
    ])
  })

  test("unknown keys deeper in, and unknown matchers, are problems with did-you-mean", async () => {
    const { problems } = await load({
      [file("a.json")]: `[
  {
    "name": "a",
    "prompt": "p",
    "expect": {
      "call": [],
      "notcalled": ["bash"]
    },
    "turns": [{ "prompt": "q", "expect": { "calls": [{ "tool": "x", "arg": {} }] } }]
  },
  {
    "name": "b",
    "prompt": "p",
    "expect": { "calls": [{ "tool": "x", "args": { "city": { "$regx": "^a" } } }] }
  }
]
`,
    })
    expect(problems.map((problem) => problem.message)).toEqual([
      `${file("a.json")}:6: cases[0].expect.call: unknown key "call"; did you mean "calls"?`,
      `${file("a.json")}:7: cases[0].expect.notcalled: unknown key "notcalled"; did you mean "notCalled"?`,
      `${file("a.json")}:9: cases[0].turns[0].expect.calls[0].arg: unknown key "arg"; did you mean "args"?`,
      `${file("a.json")}:14: cases[1].expect.calls[0].args.city.$regx: unknown matcher "$regx"; did you mean "$regex"?`,
    ])
  })

  test("missing and mistyped fields are problems naming the key and what it must be", async () => {
    const { cases, problems } = await load({
      [file("a.json")]: `[
  { "prompt": "no name" },
  { "name": "b", "prompt": "", "runs": 0 },
  { "name": "c", "prompt": "p", "expect": { "calls": { "tool": "x" }, "ordered": "yes" } },
  { "name": "d", "prompt": "p", "expect": { "calls": [{ "args": {} }], "notCalled": [3] } },
  { "name": "e", "prompt": "p", "expect": { "calls": [{ "tool": "x", "args": { "a": { "$any": false }, "b": { "$exact": 1, "$any": true } } }] } },
  { "name": "f", "prompt": "p", "results": { "x": 3 }, "execute": "all", "agent": 7, "maxCalls": 2.5 },
  "not a case"
]
`,
    })
    expect(cases).toEqual([])
    expect(problems.map((problem) => problem.message)).toEqual([
      `${file("a.json")}:2: cases[0]: "name" is missing`,
      `${file("a.json")}:3: cases[1].prompt: must be a non-empty string, not an empty string`,
      `${file("a.json")}:3: cases[1].runs: must be a whole number of at least 1, not a number (0)`,
      `${file("a.json")}:4: cases[2].expect.calls: must be a list of expected calls ({ tool, args }), not an object`,
      `${file("a.json")}:4: cases[2].expect.ordered: must be true or false, not a string ("yes")`,
      `${file("a.json")}:5: cases[3].expect.calls[0]: "tool" is missing`,
      `${file("a.json")}:5: cases[3].expect.notCalled[0]: must be a tool id or "*", not a number (3)`,
      `${file("a.json")}:6: cases[4].expect.calls[0].args.a.$any: must be true, not false`,
      `${file("a.json")}:6: cases[4].expect.calls[0].args.b: "$exact", "$any" must be the only key of its object`,
      `${file("a.json")}:7: cases[5].maxCalls: must be a whole number of at least 1, not a number (2.5)`,
      `${file("a.json")}:7: cases[5].agent: must be the name of an opencode agent (a non-empty string), not a number (7)`,
      `${file("a.json")}:7: cases[5].results.x: must be the text the call returns (a string), not a number (3)`,
      `${file("a.json")}:7: cases[5].execute: must be true, false or a list of tool ids to run for real, not a string ("all")`,
      `${file("a.json")}:8: cases[6]: a case must be an object with a name and a prompt, not a string ("not a case")`,
    ])
    expect(problems.every((problem) => problem.code === "EVAL_CASE_INVALID")).toBe(true)
    expect(problems[1]).toMatchObject({ case: "b", key: "cases[1].prompt", line: 3 })
  })

  test("matchers, turns, results and execute that are malformed are each a problem", async () => {
    const { cases, problems } = await load({
      [file("a.json")]: `[
  { "name": "a", "prompt": "p", "expect": { "calls": [{ "tool": "x", "args": { "c": { "$regex": "a", "$exact": 1 } } }] } },
  { "name": "b", "prompt": "p", "expect": { "calls": [{ "tool": "x", "args": { "c": { "$flags": "i" } } }] } },
  { "name": "c", "prompt": "p", "expect": { "calls": [{ "tool": "x", "args": { "c": { "$regex": "a", "$flags": "q" } } }] } },
  { "name": "d", "prompt": "p", "expect": { "calls": [{ "tool": "x", "args": { "$any": true } }] } },
  { "name": "e", "prompt": "p", "expect": { "calls": [{ "tool": "x", "args": ["a"] }] } },
  { "name": "f", "prompt": "p", "turns": { "prompt": "q" } },
  { "name": "g", "prompt": "p", "turns": [{ "expect": {} }] },
  { "name": "h", "prompt": "p", "results": ["x"], "execute": [true] },
  { "name": "i", "prompt": "p", "source": { "file": "x" } },
  { "name": "j", "prompt": "p", "expect": { "calls": [{ "tool": "x", "args": { "c": { "$regex": 5 } } }] } },
  { "name": "k", "prompt": "p", "expect": [] }
]
`,
    })
    expect(cases).toEqual([])
    expect(problems.map((problem) => problem.message)).toEqual([
      `${file("a.json")}:2: cases[0].expect.calls[0].args.c: "$regex" takes only "$flags" beside it, not "$exact"`,
      `${file("a.json")}:3: cases[1].expect.calls[0].args.c.$flags: "$flags" goes with "$regex"`,
      `${file("a.json")}:4: cases[2].expect.calls[0].args.c.$flags: must be regular expression flags such as "i", not a string ("q")`,
      `${file("a.json")}:5: cases[3].expect.calls[0].args: matches one value; args must be an object of arguments ({ "city": ... }), or { "$exact": { ... } } for exactly those`,
      `${file("a.json")}:6: cases[4].expect.calls[0].args: must be an object of argument matchers, or a predicate function, not an array`,
      `${file("a.json")}:7: cases[5].turns: must be a list of follow-up turns ({ prompt, expect }), not an object`,
      `${file("a.json")}:8: cases[6].turns[0]: "prompt" is missing`,
      `${file("a.json")}:9: cases[7].results: must map tool ids to the text a call returns, not an array`,
      `${file("a.json")}:9: cases[7].execute[0]: must be a tool id, not true`,
      `${file("a.json")}:10: cases[8].source: "source" is set by the loader (where the case was read); remove it`,
      `${file("a.json")}:11: cases[9].expect.calls[0].args.c.$regex: must be a regular expression as a string, not a number (5)`,
      `${file("a.json")}:12: cases[10].expect: must be an object ({ calls, ordered, notCalled }), not an array`,
    ])
  })

  test("a file that is not a list of cases is one problem", async () => {
    const { problems } = await load({
      [file("a.json")]: `{ "case": [] }`,
      [file("b.json")]: `"hello"`,
      [file("c.json")]: `{ "cases": {} }`,
      [file("d.json")]: ``,
    })
    expect(problems.map((problem) => problem.message)).toEqual([
      `${file("a.json")}:1: case: unknown key "case"; did you mean "cases"?`,
      `${file("b.json")}:1: must hold an array of cases, or { "cases": [...] }`,
      `${file("c.json")}:1: cases: must be an array of cases`,
      `${file("d.json")}:1:1: the file is empty`,
    ])
  })

  test("a duplicate case name is a problem pointing at the first; the first still loads", async () => {
    const { cases, problems } = await load({
      [file("a.json")]: `[\n  { "name": "same", "prompt": "one" }\n]`,
      [file("b.json")]: `[\n  { "name": "other", "prompt": "p" },\n  { "name": "same", "prompt": "two" }\n]`,
    })
    expect(cases.map((entry) => entry.prompt)).toEqual(["one", "p"])
    expect(problems).toEqual([
      {
        code: "EVAL_CASE_INVALID",
        file: file("b.json"),
        line: 3,
        key: "cases[1].name",
        case: "same",
        message: `${file("b.json")}:3: cases[1].name: the case name "same" is also used at ${file("a.json")}:2; give each case a name of its own (the history is keyed by it)`,
      },
    ])
  })

  test("checks every tool id a case names against the tools offered, with did-you-mean", async () => {
    const { cases, problems } = await load(
      {
        [file("a.json")]: `[
  { "name": "ok", "prompt": "p", "expect": { "calls": [{ "tool": "weather" }], "notCalled": ["*", "bash"] } },
  {
    "name": "typo",
    "prompt": "p",
    "expect": { "calls": [{ "tool": "wether" }], "notCalled": ["webfech"] },
    "results": { "weathr": "sunny" },
    "execute": ["zzz"]
  }
]
`,
      },
      ["bash", "weather", "webfetch"],
    )
    expect(cases.map((entry) => entry.name)).toEqual(["ok"])
    expect(problems).toEqual([
      expect.objectContaining({
        code: "EVAL_TOOL_UNKNOWN",
        line: 6,
        key: "cases[1].expect.calls[0].tool",
        case: "typo",
      }),
      expect.objectContaining({ code: "EVAL_TOOL_UNKNOWN", line: 6, key: "cases[1].expect.notCalled[0]" }),
      expect.objectContaining({ code: "EVAL_TOOL_UNKNOWN", line: 7, key: "cases[1].results.weathr" }),
      expect.objectContaining({ code: "EVAL_TOOL_UNKNOWN", line: 8, key: "cases[1].execute[0]" }),
    ])
    expect(problems.map((problem) => problem.message)).toEqual([
      `${file("a.json")}:6: cases[1].expect.calls[0].tool: no tool "wether" is offered; did you mean "weather"?`,
      `${file("a.json")}:6: cases[1].expect.notCalled[0]: no tool "webfech" is offered; did you mean "webfetch"?`,
      `${file("a.json")}:7: cases[1].results.weathr: no tool "weathr" is offered; did you mean "weather"?`,
      `${file("a.json")}:8: cases[1].execute[0]: no tool "zzz" is offered (offered: bash, weather, webfetch)`,
    ])
  })

  test("knows invalid, the tool opencode reroutes bad calls to, though no model is offered it", async () => {
    const { problems } = await load(
      { [file("a.json")]: `[{ "name": "a", "prompt": "p", "expect": { "notCalled": ["invalid"] } }]` },
      ["weather"],
    )
    expect(problems).toEqual([])
  })

  test("a case name must be one line without control characters", async () => {
    const { problems } = await load({ [file("a.json")]: `[{ "name": "two\\nlines", "prompt": "p" }]` })
    expect(problems.map((problem) => problem.message)).toEqual([
      `${file("a.json")}:1: cases[0].name: must be one line of text, without control characters`,
    ])
  })

  test("reads a JSON file that starts with a byte order mark", async () => {
    const { cases, problems } = await load({ [file("a.json")]: `\uFEFF[{ "name": "a", "prompt": "p" }]` })
    expect(problems).toEqual([])
    expect(cases).toHaveLength(1)
  })

  test("does not check tool ids when no list is given", async () => {
    const { problems } = await load({
      [file("a.json")]: `[{ "name": "a", "prompt": "p", "expect": { "calls": [{ "tool": "anything" }] } }]`,
    })
    expect(problems).toEqual([])
  })

  test("says so when the evals path is a file, not a folder", async () => {
    const { problems } = await load({ [evals]: "oops" })
    expect(problems).toEqual([
      expect.objectContaining({
        code: "EVAL_CASE_INVALID",
        file: evals,
        message: `${evals}: is not a folder: eval reads its cases from the files in a folder there; move this file away, and eval --init writes starter cases`,
      }),
    ])
  })

  test("accepts comments and trailing commas in JSON case files, as in opencode.json", async () => {
    const { cases, problems } = await load({
      [file("a.json")]: `// weather cases\n[\n  { "name": "a", "prompt": "p", /* soon: expect */ },\n]\n`,
    })
    expect(problems).toEqual([])
    expect(cases.map((entry) => entry.name)).toEqual(["a"])
  })
})
