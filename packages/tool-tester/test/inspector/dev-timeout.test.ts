// `tool-tester dev --timeout MS` bounds each call as `run --timeout` does (the same flag reading and
// bounds): a call past it is TOOL_TIMEOUT, naming the bound. Without a browser.
import { expect, onTestFinished, test } from "vitest"
import { runCli } from "../helpers.ts"
import { makeProject, startDev } from "./_inspector.ts"

const never = `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Never answers", args: {}, async execute() { await new Promise(() => {}) } })
`

test("dev --timeout bounds each call: past it the call is TOOL_TIMEOUT, naming the bound", {
  timeout: 120_000,
}, async () => {
  const project = makeProject({ ".opencode/tools/never.ts": never })
  onTestFinished(project.remove)
  const dev = await startDev(project.directory, ["--timeout", "1500"])
  onTestFinished(dev.stop)
  const answer = await fetch(`http://127.0.0.1:${dev.port}/${dev.token}/api/call`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: `http://127.0.0.1:${dev.port}` },
    body: JSON.stringify({ name: "never", form: "args", args: {} }),
    signal: AbortSignal.timeout(100_000),
  })
  expect(answer.status).toBe(200)
  const entry = (await answer.json()) as { result?: { error?: { code: string; message: string } } }
  expect(entry.result?.error?.code).toBe("TOOL_TIMEOUT")
  expect(entry.result?.error?.message).toContain("1500 ms")
})

test.each(["0", "1.5", "2000000001", "soon"])(
  "dev --timeout %s is a usage error, as for run",
  { timeout: 60_000 },
  async (value) => {
    const result = await runCli(["dev", "--timeout", value, "--no-open"])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(
      `--timeout needs a whole number of milliseconds from 1 to 2000000000 (about 23 days), not "${value}"`,
    )
  },
)
