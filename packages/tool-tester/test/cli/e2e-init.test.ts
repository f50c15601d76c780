import { existsSync, readFileSync, symlinkSync } from "node:fs"
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

  test("the run's options given beside --init go into the command it prints; a bad one is refused before writing", async () => {
    const directory = tmpProject({ ".opencode/tools/weather.ts": weather })
    const bad = await runCli(["e2e", "--init", "--timeout", "soon"], { cwd: directory })
    expect(bad.exitCode).toBe(1)
    expect(bad.stderr).toMatch(/--timeout needs a whole number of milliseconds .* \[USAGE\]\n$/)
    expect(existsSync(path.join(directory, "e2e.json"))).toBe(false)
    // --config's JSON too: the script was written, and the line printed failed when pasted.
    for (const config of ["{bad", "[1]", '{"plugin":"x"}']) {
      const refused = await runCli(["e2e", "--init", "--config", config], { cwd: directory })
      expect(refused.exitCode, config).toBe(config === '{"plugin":"x"}' ? 3 : 1)
      expect(refused.stderr).toMatch(/^✖ --config/)
      expect(existsSync(path.join(directory, "e2e.json"))).toBe(false)
    }
    // And the version --opencode-version installs: a tag is refused by the run the line starts.
    const tag = await runCli(["e2e", "--init", "--opencode-version", "latest"], { cwd: directory })
    expect(tag.exitCode).toBe(1)
    expect(tag.stderr).toMatch(/^✖ "latest" is not an opencode version .*\[OPENCODE_NOT_FOUND\]\n$/)
    expect(existsSync(path.join(directory, "e2e.json"))).toBe(false)

    const init = await runCli(
      ["e2e", "--init", "--model", "gemini-2.5-pro", "--call-timeout", "5000", "--opencode", "/opt/my opencode"],
      { cwd: directory },
    )
    expect(init.exitCode, init.stderr).toBe(0)
    // The opencode named is the one the run uses: no download is added to the line.
    expect(init.stdout).toContain(
      "Run it: npx @opencode-ai/tool-tester e2e --script e2e.json --model gemini-2.5-pro --call-timeout 5000 --opencode '/opt/my opencode'\n",
    )
    expect(init.stdout).not.toContain("--opencode-version")
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

  test("e2e without --script names --init in the words that run this bin", async () => {
    const result = await runCli(["e2e"], { cwd: tmpProject({}) })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(
      "e2e needs --script SCRIPT.json (the model's turns); npx @opencode-ai/tool-tester e2e --init writes a starter script",
    )
  })

  test("a --script in a missing folder, or a link that leads nowhere, is one USAGE line before any tool loads", async () => {
    const directory = tmpProject({ ".opencode/tools/weather.ts": weather })
    const missing = await runCli(["e2e", "--init", "--script", "nodir/x.json"], { cwd: directory })
    expect(missing.exitCode).toBe(1)
    expect(missing.stderr).toBe(
      `✖ ${path.join(directory, "nodir", "x.json")} cannot be written: ${path.join(directory, "nodir")} is not a folder; create it, or give --script a file in one [USAGE]\n`,
    )
    symlinkSync(path.join(directory, "victim.json"), path.join(directory, "dangling.json"))
    const dangling = await runCli(["e2e", "--init", "--script", "dangling.json"], { cwd: directory })
    expect(dangling.exitCode).toBe(1)
    expect(dangling.stderr).toContain("dangling.json is a link already: give --script another file name")
    expect(existsSync(path.join(directory, "victim.json"))).toBe(false)
  })

  test("loads as schema does: what a tool prints at import stays off --json's stdout, and a hanging import is bounded", async () => {
    const noisy = tmpProject({
      ".opencode/tools/weather.ts": `console.log("IMPORT-TIME-LOG")\n${weather}`,
    })
    const json = await runCli(["e2e", "--init", "--json"], { cwd: noisy })
    expect(json.exitCode, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({ tools: ["weather"] })

    const hangs = tmpProject({
      ".opencode/tools/weather.ts": weather,
      ".opencode/tools/slow.ts": "await new Promise(() => { setInterval(() => {}, 1000) })\n",
    })
    const bounded = await runCli(["e2e", "--init"], { cwd: hangs, env: { TOOL_TESTER_LOAD_TIMEOUT_MS: "3000" } })
    expect(bounded.exitCode).not.toBe(0)
    expect(bounded.stderr).toMatch(/slow\.ts/)
    expect(existsSync(path.join(hangs, "e2e.json"))).toBe(false)
  })
})
