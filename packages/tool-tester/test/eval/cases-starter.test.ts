import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { gradeTrial, loadEvalCases, safeFileName, starterCases, writeStarterCases } from "../../src/eval-cases/index.ts"
import type { EvalTrial, ToolSnapshot } from "../../src/eval-cases/types.ts"
import { useTmpDir, writeFiles } from "../helpers.ts"

const weather: ToolSnapshot = {
  id: "weather",
  description: "Get the current weather for a city. Uses the Open-Meteo API.",
  parameters: {
    type: "object",
    properties: {
      city: { type: "string", description: "City name" },
      units: { type: "string", enum: ["metric", "imperial"] },
      days: { type: "integer", minimum: 1, default: 3 },
      detailed: { type: "boolean" },
    },
    required: ["city", "units", "days"],
  },
}
const noArgs: ToolSnapshot = { id: "math_pi", description: "", parameters: { type: "object", properties: {} } }
const builtins = ["bash", "edit", "read", "webfetch"]

function trial(turns: EvalTrial["turns"]): EvalTrial {
  return { case: "c", model: "mock/model", run: 1, durationMs: 1, turns }
}

describe("writeStarterCases", () => {
  test("writes one JSON file per tool under .opencode/evals, from the description and schema", async () => {
    const directory = useTmpDir("tool-tester-evals-")
    const result = await writeStarterCases(directory, [weather, noArgs])
    const folder = path.join(directory, ".opencode", "evals")
    expect(result).toEqual({
      written: [path.join(folder, "weather.json"), path.join(folder, "math_pi.json")],
      kept: [],
    })
    const written = JSON.parse(readFileSync(path.join(folder, "weather.json"), "utf8"))
    expect(written["//"]).toContain("tool-tester eval --init")
    expect(written.cases).toEqual([
      {
        name: "weather: does its job",
        prompt: "Get the current weather for a city. city=example units=metric days=3",
        expect: {
          calls: [{ tool: "weather", args: { city: { $any: true }, units: "metric", days: 3 } }],
          notCalled: ["bash", "webfetch"],
        },
      },
      {
        name: "weather: not called for small talk",
        prompt: "Thanks, bye!",
        expect: { notCalled: ["weather"] },
      },
    ])
    const plain = JSON.parse(readFileSync(path.join(folder, "math_pi.json"), "utf8"))
    expect(plain.cases[0]).toEqual({
      name: "math_pi: does its job",
      prompt: "Use math_pi.",
      expect: { calls: [{ tool: "math_pi" }], notCalled: ["bash", "webfetch"] },
    })
  })

  test("what it writes loads with no problems and grades a matching trial as a pass", async () => {
    const directory = useTmpDir("tool-tester-evals-")
    await writeStarterCases(directory, [weather, noArgs])
    const { cases, problems } = await loadEvalCases(directory, { toolIds: [...builtins, "weather", "math_pi"] })
    expect(problems).toEqual([])
    expect(cases.map((entry) => entry.name)).toEqual([
      "math_pi: does its job",
      "math_pi: not called for small talk",
      "weather: does its job",
      "weather: not called for small talk",
    ])
    const job = cases.find((entry) => entry.name === "weather: does its job")!
    const called = trial([
      {
        prompt: job.prompt,
        calls: [{ tool: "weather", args: { city: "example", units: "metric", days: 3 }, status: "completed" }],
        text: "",
      },
    ])
    expect(gradeTrial(job, called)).toEqual({ pass: true, reasons: [] })
    const curl = trial([
      {
        prompt: job.prompt,
        calls: [{ tool: "bash", args: { command: "curl wttr.in" }, status: "completed" }],
        text: "",
      },
    ])
    expect(gradeTrial(job, curl).pass).toBe(false)
    const smallTalk = cases.find((entry) => entry.name === "weather: not called for small talk")!
    expect(gradeTrial(smallTalk, trial([{ prompt: smallTalk.prompt, calls: [], text: "You're welcome!" }])).pass).toBe(
      true,
    )
  })

  test("never overwrites a case file: an existing one is kept as it is", async () => {
    const directory = useTmpDir("tool-tester-evals-")
    writeFiles(directory, { ".opencode/evals/weather.json": "[] // mine\n" })
    const folder = path.join(directory, ".opencode", "evals")
    const result = await writeStarterCases(directory, [weather, noArgs])
    expect(result).toEqual({ written: [path.join(folder, "math_pi.json")], kept: [path.join(folder, "weather.json")] })
    expect(readFileSync(path.join(folder, "weather.json"), "utf8")).toBe("[] // mine\n")
    writeFileSync(path.join(folder, "math_pi.json"), "edited\n")
    const again = await writeStarterCases(directory, [weather, noArgs])
    expect(again.written).toEqual([])
    expect(readFileSync(path.join(folder, "math_pi.json"), "utf8")).toBe("edited\n")
  })

  test("a case file that is a link to nothing is not kept nor written through: nothing is written and the link is named", async () => {
    const directory = useTmpDir("tool-tester-evals-")
    const folder = path.join(directory, ".opencode", "evals")
    mkdirSync(folder, { recursive: true })
    const link = path.join(folder, "weather.json")
    const missing = path.join(directory, "moved", "weather.json")
    symlinkSync(missing, link)
    await expect(writeStarterCases(directory, [noArgs, weather])).rejects.toMatchObject({
      code: "PATH_NOT_FOUND",
      message: `${link} is a link to ${missing}, which does not exist: --init wrote no case file; remove the link (or restore what it points to) and run it again`,
      data: { file: link, target: missing },
    })
    // Nothing written, here or where the link points; the link is as it was.
    expect(readdirSync(folder)).toEqual(["weather.json"])
    expect(readlinkSync(link)).toBe(missing)
    expect(existsSync(path.dirname(missing))).toBe(false)
    // A link to a file that is there is a case file like any other: kept.
    writeFiles(directory, { "moved/weather.json": "[]\n" })
    expect(await writeStarterCases(directory, [weather])).toEqual({ written: [], kept: [link] })
    expect(readFileSync(missing, "utf8")).toBe("[]\n")
  })

  test("keeps tool ids that are not safe file names inside the folder", async () => {
    const directory = useTmpDir("tool-tester-evals-")
    const hostile = ["../escape", "..", "a/b", "a\\b", "con", ".hidden", "c:d", "_lookup"].map((id) => ({
      ...noArgs,
      id,
    }))
    const { written } = await writeStarterCases(directory, hostile, { folder: "evals" })
    const folder = path.join(directory, "evals")
    expect(written).toHaveLength(hostile.length)
    for (const file of written) expect(path.dirname(file)).toBe(folder)
    expect(readdirSync(directory).sort()).toEqual(["evals"])
    expect(readdirSync(folder).sort()).toEqual(
      ["tool-__", "tool-___escape", "tool-con", "tool-_hidden", "a_b", "a_b-2", "c_d", "tool-_lookup"]
        .map((name) => `${name}.json`)
        .sort(),
    )
    expect(existsSync(path.join(directory, "escape.json"))).toBe(false)
    // None is named as a helper file (a leading "_"): eval reads the cases of every tool.
    const { cases, problems } = await loadEvalCases(directory, {
      folder: "evals",
      toolIds: [...builtins, ...hostile.map((tool) => tool.id)],
    })
    expect(problems).toEqual([])
    expect(new Set(cases.map((one) => one.source?.file))).toEqual(
      new Set(readdirSync(folder).map((name) => `evals/${name}`)),
    )
  })

  test("throws PATH_NOT_FOUND when the evals folder is a file", async () => {
    const directory = useTmpDir("tool-tester-evals-")
    writeFiles(directory, { ".opencode/evals": "not a folder" })
    await expect(writeStarterCases(directory, [weather])).rejects.toMatchObject({
      code: "PATH_NOT_FOUND",
      message: `${path.join(directory, ".opencode", "evals")} is not a folder: eval's cases are the files in a folder there; move this file away and run it again`,
    })
  })

  test("takes argument values from const, examples, enum and default, in that order, and objects exactly", () => {
    const [job] = starterCases({
      id: "book",
      description: "Book a table\nat a restaurant! Needs a time.",
      parameters: {
        type: "object",
        properties: {
          kind: { const: "table", enum: ["room"] },
          time: { type: "string", examples: ["19:30"], default: "12:00" },
          guests: { type: "integer", minimum: 2 },
          where: { type: "object", default: { city: "Paris" } },
          tags: { type: "array", items: { type: "string" } },
          note: { anyOf: [{ type: "string" }, { type: "null" }] },
        },
        required: ["kind", "time", "guests", "where", "tags", "note"],
      },
    })
    expect(job).toEqual({
      name: "book: does its job",
      prompt: 'Book a table at a restaurant. kind=table time=19:30 guests=2 where={"city":"Paris"}',
      expect: {
        calls: [
          {
            tool: "book",
            args: {
              kind: "table",
              time: "19:30",
              guests: { $any: true },
              where: { $exact: { city: "Paris" } },
              tags: { $any: true },
              note: { $any: true },
            },
          },
        ],
        notCalled: ["bash", "webfetch"],
      },
    })
  })

  test("does not forbid a built-in the tool itself replaces", () => {
    const [job] = starterCases({ id: "webfetch", description: "Fetch a page.", parameters: {} })
    expect(job!.expect).toEqual({ calls: [{ tool: "webfetch" }], notCalled: ["bash"] })
  })

  test("safeFileName leaves ordinary tool ids as they are", () => {
    expect(["weather", "math_add", "my-dashed.tool", "MyTool"].map(safeFileName)).toEqual([
      "weather",
      "math_add",
      "my-dashed.tool",
      "MyTool",
    ])
  })
})
