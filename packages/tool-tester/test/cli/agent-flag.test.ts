// `run --agent NAME` as `opencode run --agent` takes it (docs/cli.md#run, the `agent` golden).
import { describe, expect, test } from "vitest"
import type { CliIO } from "../../src/cli/_command.ts"
import { runCommand } from "../../src/cli/commands/run.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "../support/tmp-project.ts"

function memoryIO(cwd: string, env: Record<string, string>): CliIO & { out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  return {
    cwd,
    env: { ...process.env, ...env },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    write: (text) => void out.push(text),
    writeError: (text) => void err.push(text),
    chdir: () => {},
    onInterrupt: () => () => {},
    out,
    err,
  }
}

async function run(files: Record<string, string>, flags: string[], json = true) {
  const directory = tmpProject({
    ".opencode/tools/whoami.ts": toolSource("who runs this", 'return "agent=" + context.agent'),
    ...files,
  })
  const { env } = isolatedEnvironment()
  const io = memoryIO(directory, env)
  const exitCode = await runCommand(["whoami", "--engine", "node", ...(json ? ["--json"] : []), ...flags], io)
  const stdout = io.out.join("")
  return {
    exitCode,
    output: json ? (JSON.parse(stdout) as { output: string }).output : stdout,
    stderr: io.err.join(""),
  }
}

describe("run --agent", () => {
  test("gives the tool the agent named", { timeout: 120_000 }, async () => {
    expect(await run({}, ["--agent", "plan"])).toMatchObject({ exitCode: 0, output: "agent=plan" })
  })

  test("without it the tool gets the config's default_agent", { timeout: 120_000 }, async () => {
    const config = JSON.stringify({ default_agent: "plan" })
    expect(await run({ "opencode.json": config }, [])).toMatchObject({ exitCode: 0, output: "agent=plan" })
  })

  test("a subagent falls back to the default agent with opencode's warning", { timeout: 120_000 }, async () => {
    const result = await run({}, ["--agent", "explore"], false)
    expect(result.exitCode).toBe(0)
    expect(result.output).toContain("agent=build")
    expect(result.stderr).toContain('agent "explore" is a subagent, not a primary agent. Falling back to default agent')
    expect(result.stderr).toContain("AGENT_FALLBACK")
  })
})
