import { describe, expect, test } from "vitest"
import { runCli } from "../helpers.ts"
import { tmpProject, writeFiles } from "../support/tmp-project.ts"

type DoctorJson = {
  findings: Array<{
    code: string
    severity: string
    file: string | null
    message: string
    data?: Record<string, unknown>
  }>
}

describe("doctor's provider lint", { timeout: 60_000 }, () => {
  test.each(["bun", "node"])(
    "names the providers that reject a tool as opencode sends it (%s engine)",
    async (engine) => {
      const directory = tmpProject({
        ".opencode/tools/prefs.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Preferences",
  args: { options: tool.schema.object({}), version: tool.schema.literal(3) },
  async execute() { return "ok" },
})
`,
      })
      const result = await runCli(["doctor", "--no-global", "--json", "--engine", engine], { cwd: directory })
      expect(result.exitCode).toBe(3)
      const { findings } = JSON.parse(result.stdout) as DoctorJson
      const lint = findings.filter((finding) => finding.code === "PROVIDER_REJECTS")
      expect(lint.map((finding) => [finding.severity, finding.data?.["rule"], finding.data?.["providers"]])).toEqual([
        ["error", "gemini/empty-object", ["google"]],
        ["warning", "gemini/non-string-const", ["google"]],
      ])
      expect(lint[0]).toMatchObject({
        file: expect.stringMatching(/prefs\.ts$/),
        message:
          'Gemini (@ai-sdk/google) rejects prefs: options is an object with no properties (z.object({}) or z.record): Gemini answers "properties: should be non-empty for OBJECT type" (rule gemini/empty-object)',
      })

      const human = await runCli(["doctor", "--no-global", "--engine", engine], { cwd: directory })
      expect(human.stdout).toContain("PROVIDER_REJECTS")
    },
  )

  test("args given as z.object(...) are one NON_ZOD_ARGS error, without the rejections that follow from it", async () => {
    const directory = tmpProject({
      ".opencode/tools/weather.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Weather",
  args: tool.schema.object({ city: tool.schema.string() }) as never,
  async execute() { return "ok" },
})
`,
    })
    const result = await runCli(["doctor", "--no-global", "--json", "--engine", "node"], { cwd: directory })
    expect(result.exitCode).toBe(3)
    const { findings } = JSON.parse(result.stdout) as DoctorJson
    expect(findings.map((finding) => [finding.code, finding.severity])).toEqual([["NON_ZOD_ARGS", "error"]])
    expect(findings[0]!.message).toContain("write args: { city: z.string() }, not z.object(...)")
  })

  test("only the providers of the configured model fail doctor; others warn, and --provider asks about one", async () => {
    const records = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Records",
  args: { labels: tool.schema.record(tool.schema.string(), tool.schema.string()) },
  async execute() { return "ok" },
})
`
    const directory = tmpProject({
      "opencode.json": JSON.stringify({ model: "anthropic/claude-sonnet-4-5" }),
      ".opencode/tools/records.ts": records,
    })
    const doctor = async (...flags: string[]) => {
      const result = await runCli(["doctor", "--no-global", "--json", ...flags], { cwd: directory })
      const { findings } = JSON.parse(result.stdout) as DoctorJson
      return { exitCode: result.exitCode, lint: findings.filter((finding) => finding.code === "PROVIDER_REJECTS") }
    }
    const anthropic = await doctor()
    expect(anthropic.exitCode).toBe(0)
    expect(anthropic.lint.map((finding) => [finding.severity, finding.data?.["providers"]])).toEqual([
      ["warning", ["google"]],
    ])
    expect(anthropic.lint[0]?.message).toContain("check it as an error with doctor --provider google")

    for (const flags of [
      ["--provider", "google"],
      ["--model", "gemini-2.5-pro"],
    ]) {
      const asked = await doctor(...flags)
      expect(asked.exitCode, flags.join(" ")).toBe(3)
      expect(asked.lint.map((finding) => finding.severity)).toEqual(["error"])
    }

    writeFiles(directory, { "opencode.json": JSON.stringify({ agent: { build: { model: "google/gemini-2.5-pro" } } }) })
    expect((await doctor()).exitCode).toBe(3)
  })

  test("a tool every provider accepts gets no PROVIDER_REJECTS finding", async () => {
    const directory = tmpProject({
      ".opencode/tools/weather.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Weather",
  args: { city: tool.schema.string(), units: tool.schema.enum(["metric", "imperial"]).optional() },
  async execute() { return "ok" },
})
`,
    })
    const result = await runCli(["doctor", "--no-global", "--json"], { cwd: directory })
    expect(result.exitCode).toBe(0)
    expect((JSON.parse(result.stdout) as DoctorJson).findings).toEqual([])
  })
})
