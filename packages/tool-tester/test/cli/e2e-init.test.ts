import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { runCli } from "../helpers.ts"
import { tmpProject } from "../support/tmp-project.ts"

const weather = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Weather",
  args: {
    city: tool.schema.string(),
    units: tool.schema.enum(["metric", "imperial"]),
    days: tool.schema.number().int().min(1).optional(),
  },
  async execute(args) { return args.city + " in " + args.units },
})
`

describe("tool-tester e2e --init", { timeout: 180_000 }, () => {
  test("writes a starter script calling each tool once (in request order), which e2e then runs in the real opencode", async () => {
    const directory = tmpProject({
      ".opencode/tools/weather.ts": weather,
      ".opencode/plugins/echo.ts": `export const Echo = async () => ({ tool: { echo: { description: "Echo", args: {}, execute: async () => "echoed" } } })\n`,
    })
    const init = await runCli(["e2e", "--init"], { cwd: directory })
    expect(init.exitCode, init.stderr).toBe(0)
    expect(init.stdout).toContain("Wrote e2e.json: one call to each of echo, weather")
    expect(init.stdout).toContain("Run it: npx @opencode-ai/tool-tester e2e --script e2e.json")
    expect(JSON.parse(readFileSync(path.join(directory, "e2e.json"), "utf8"))).toEqual({
      prompt: "Use each tool once.",
      turns: [
        { calls: [{ tool: "echo", args: {} }] },
        { calls: [{ tool: "weather", args: { city: "example", units: "metric" } }] },
        { text: "Done." },
      ],
    })

    const run = await runCli(["e2e", "--script", "e2e.json", "--json"], { cwd: directory })
    expect(run.exitCode, run.stderr).toBe(0)
    const result = JSON.parse(run.stdout) as { calls: Array<{ result: string | null; status: string }> }
    expect(result.calls.map((call) => [call.status, call.result])).toEqual([
      ["completed", "echoed"],
      ["completed", "example in metric"],
    ])
  })

  test("the command it prints keeps --dir and --plugin as given, so that it runs the same tools where it was typed", async () => {
    const directory = tmpProject({
      ".opencode/tools/weather.ts": weather,
      "extra plugin.ts": `export const Extra = async () => ({ tool: { extra: { description: "Extra", args: {}, execute: async () => "extra" } } })\n`,
      "sub/.keep": "",
    })
    const cwd = path.join(directory, "sub")
    const init = await runCli(
      ["e2e", "--init", "--script", "my script.json", "--dir", "..", "--plugin", "../extra plugin.ts"],
      {
        cwd,
      },
    )
    expect(init.exitCode, init.stderr).toBe(0)
    expect(init.stdout).toContain("Wrote my script.json: one call to each of extra, weather")
    expect(init.stdout).toContain(
      "Run it: npx @opencode-ai/tool-tester e2e --script 'my script.json' --dir .. --plugin '../extra plugin.ts'\n",
    )
  })

  test("never overwrites a file, and writes nothing when a tool file fails to load", async () => {
    const directory = tmpProject({ ".opencode/tools/weather.ts": weather })
    expect((await runCli(["e2e", "--init", "--script", "mine.json"], { cwd: directory })).exitCode).toBe(0)
    const before = readFileSync(path.join(directory, "mine.json"), "utf8")
    const again = await runCli(["e2e", "--init", "--script", "mine.json"], { cwd: directory })
    expect(again.exitCode).toBe(1)
    expect(again.stderr).toContain("mine.json exists already: give --script another file name, or remove it first")
    expect(readFileSync(path.join(directory, "mine.json"), "utf8")).toBe(before)

    const broken = tmpProject({ ".opencode/tools/broken.ts": "export default {\n" })
    const failed = await runCli(["e2e", "--init"], { cwd: broken })
    expect(failed.exitCode).toBe(3)
    expect(failed.stderr).toContain("fix it first (no script written)")
    expect(existsSync(path.join(broken, "e2e.json"))).toBe(false)
  })
})
