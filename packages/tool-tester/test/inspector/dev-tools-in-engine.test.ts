// `tool-tester dev` keeps the tools in an engine's process under both engines (docs/inspector.md,
// "Security"): a tool that calls process.exit fails its call and dev serves on, and what the tools
// print goes to dev's stderr, each line after the tool's name, so that its stdout holds only the
// --json line. Before, under
// `--engine node`, the tools ran in dev's own process: process.exit ended dev without a word, and
// a console.log at import came out on stdout ahead of the JSON line.
import { expect, onTestFinished, test } from "vitest"
import { opencode } from "../helpers.ts"
import { makeProject, type RunningDev, startDev } from "./_inspector.ts"

const files = {
  ".opencode/tools/loud.ts": `import { tool } from "@opencode-ai/plugin"
console.log("printed-at-import")
export default tool({
  description: "prints, then answers",
  args: { a: tool.schema.string() },
  async execute(args) {
    console.log("printed-by-execute")
    process.stdout.write("written-to-stdout\\n")
    return "ok " + args.a
  },
})
`,
  ".opencode/tools/quit.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "ends its process", args: {}, async execute() { process.exit(3) } })
`,
  ".opencode/tools/closes_stdin.ts": `import { tool } from "@opencode-ai/plugin"
import { closeSync } from "node:fs"
export default tool({ description: "closes its stdin", args: {}, async execute() { closeSync(0); return "closed" } })
`,
}

type Entry = { result?: { status: string; output: string; error?: { code: string } }; error?: { code: string } }

async function call(dev: RunningDev, name: string, args: Record<string, unknown>): Promise<Entry> {
  const answer = await fetch(`http://127.0.0.1:${dev.port}/${dev.token}/api/call`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: `http://127.0.0.1:${dev.port}` },
    body: JSON.stringify({ name, form: "args", args }),
    signal: AbortSignal.timeout(120_000),
  })
  expect(answer.status, await answer.clone().text()).toBe(200)
  return (await answer.json()) as Entry
}

/** dev --json on a project of `files`, both ended after the test. */
async function devOn(flags: string[]): Promise<RunningDev> {
  const project = makeProject(files)
  onTestFinished(project.remove)
  const dev = await startDev(project.directory, flags)
  onTestFinished(dev.stop)
  return dev
}

const engines: Array<{ name: string; flags: string[]; skip?: string }> = [
  { name: "node", flags: ["--engine", "node"] },
  {
    name: "bun",
    flags: opencode.binary ? ["--engine", "bun", "--engine-binary", opencode.binary] : [],
    ...(opencode.reason ? { skip: opencode.reason } : {}),
  },
]

for (const engine of engines) {
  test.skipIf(engine.skip !== undefined)(
    `dev --engine ${engine.name}: a tool that exits fails its call and dev serves on; tools print to stderr, never to the --json stdout${engine.skip ? ` (${engine.skip})` : ""}`,
    { timeout: 240_000 },
    async () => {
      const dev = await devOn(engine.flags)

      const quit = await call(dev, "quit", {})
      expect(quit.result?.status).toBe("error")
      expect(quit.result?.error?.code).toBe("TOOL_EXITED")
      expect(quit.result?.output).toContain("process.exit(3)")
      // dev is still up, and the next call loads the project again in a new engine.
      expect(dev.child.exitCode).toBeNull()
      const loud = await call(dev, "loud", { a: "y" })
      expect(loud.result?.status).toBe("completed")
      expect(loud.result?.output).toBe("ok y")

      await expect.poll(() => dev.output().stderr, { timeout: 60_000, interval: 100 }).toContain("written-to-stdout")
      const { stdout, stderr } = dev.output()
      // Each line after the tool that printed it ([load]: a file's top-level code).
      expect(stderr).toContain("[load] printed-at-import\n")
      expect(stderr).toContain("[loud] printed-by-execute\n")
      expect(stderr).toContain("[loud] written-to-stdout\n")
      // stdout: the one JSON line, nothing else.
      const lines = stdout.split("\n")
      expect(lines).toHaveLength(2)
      expect(lines[1]).toBe("")
      expect(JSON.parse(lines[0]!)).toMatchObject({ port: dev.port, engine: { name: engine.name } })
    },
  )
}

// Bun, and so opencode, ignores fs.closeSync(0); under Node the engine's stdin is gone, and the engine
// reads nothing more. Either way the call keeps its result, and the calls after it are answered (by
// a new engine where the old one can no longer be told anything).
for (const engine of engines) {
  test.skipIf(engine.skip !== undefined)(
    `dev --engine ${engine.name}: a tool that closes its stdin keeps its result, and the next calls are answered${engine.skip ? ` (${engine.skip})` : ""}`,
    { timeout: 240_000 },
    async () => {
      const dev = await devOn(engine.flags)

      const closes = await call(dev, "closes_stdin", {})
      expect(closes.result, JSON.stringify(closes)).toMatchObject({ status: "completed", output: "closed" })
      for (const a of ["one", "two"]) {
        const loud = await call(dev, "loud", { a })
        expect(loud.result, JSON.stringify(loud)).toMatchObject({ status: "completed", output: `ok ${a}` })
      }
    },
  )
}
