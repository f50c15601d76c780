// A tool whose metadata nests 5,000 levels deep: opencode 1.18.34 copies and records it (observed
// with this script on the binary), and e2e prints the run. Before, both the transcript and --json
// died in JSON.stringify's recursion: "✖ unexpected error: RangeError: Maximum call stack size
// exceeded", INTERNAL, exit 1. They now cut it at 100 levels with a marker, as run's report does.
import { expect, test } from "vitest"
import { opencode, runCli, useTmpDir, writeFiles } from "../helpers.ts"

test.skipIf(opencode.binary === undefined)(
  "e2e prints a tool's metadata nested 5,000 levels deep, cut with a marker, in the transcript and with --json",
  { timeout: 240_000 },
  async () => {
    const directory = useTmpDir()
    writeFiles(directory, {
      ".opencode/tools/deep.ts": `export default { description: "deep metadata", args: {}, async execute() {
  let metadata: Record<string, unknown> = { leaf: true }
  for (let level = 0; level < 5000; level++) metadata = { next: metadata }
  return { output: "deep", metadata }
} }
`,
      "e2e-script.json": JSON.stringify({ turns: [{ calls: [{ tool: "deep", args: {} }] }, { text: "done" }] }),
    })
    for (const json of [true, false]) {
      const result = await runCli(
        ["e2e", "--dir", directory, "--script", "e2e-script.json", ...(json ? ["--json"] : [])],
        {
          cwd: directory,
        },
      )
      expect(result.exitCode, result.stderr).toBe(0)
      expect(result.stdout).toContain("[cut: deeper than 100 levels]")
    }
  },
)
