import { describe, expect, test } from "vitest"
import { runCli } from "../helpers.ts"
import { tmpProject } from "../support/tmp-project.ts"

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
