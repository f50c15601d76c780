import { spawn } from "node:child_process"
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, onTestFinished, test } from "vitest"
import { toolTester } from "../../src/vitest/watch-plugin.ts"
import { packageRoot } from "../helpers.ts"
import { killGroup } from "../support/processes.ts"
import { tmpProject } from "../support/tmp-project.ts"

const vitestBin = path.resolve(packageRoot, "..", "..", "node_modules", "vitest", "vitest.mjs")

const greetTool = (greeting: string) => `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Greets someone",
  args: { name: tool.schema.string() },
  async execute(args) { return "${greeting}, " + args.name + "!" },
})
`

describe("toolTester() vitest plugin", { timeout: 180_000 }, () => {
  test("triggers on the tool folders of every config folder opencode reads, keeping vitest's defaults", () => {
    const root = path.join(packageRoot, ".tmp", "app (1)")
    const plugin = toolTester({ extraTriggers: ["**/data/*.json"] })
    const { forceRerunTriggers } = plugin.config({ root }).test
    const escaped = path.join(packageRoot, ".tmp").replace(/[()]/g, "\\$&")
    expect(forceRerunTriggers.slice(0, 4)).toEqual([
      "**/package.json/**",
      "**/{vitest,vite}.config.*/**",
      `${escaped}/app \\(1\\)/.opencode/!(node_modules|test|tests|__snapshots__)/**`,
      `${escaped}/app \\(1\\)/.opencode/opencode.{json,jsonc}`,
    ])
    expect(forceRerunTriggers).toContain(`${escaped}/.opencode/!(node_modules|test|tests|__snapshots__)/**`)
    expect(forceRerunTriggers.at(-1)).toBe("**/data/*.json")
    expect(plugin.config({ root, test: { forceRerunTriggers: ["x"] } }).test.forceRerunTriggers[0]).toBe(
      `${escaped}/app \\(1\\)/.opencode/!(node_modules|test|tests|__snapshots__)/**`,
    )
    // A root that is itself a .opencode folder (create-tool's layout) watches its own tools/.
    expect(plugin.config({ root: path.join(root, ".opencode") }).test.forceRerunTriggers[2]).toBe(
      `${escaped}/app \\(1\\)/.opencode/!(node_modules|test|tests|__snapshots__)/**`,
    )
  })

  test("in watch mode, saving a helper a tool imports, or the tool itself, re-runs its test", async () => {
    const directory = tmpProject({
      ".opencode/tools/greet.ts": `import { tool } from "@opencode-ai/plugin"
import { greeting } from "../lib/greeting.ts"
export default tool({
  description: "Greets someone",
  args: { name: tool.schema.string() },
  async execute(args) { return greeting + ", " + args.name + "!" },
})
`,
      ".opencode/lib/greeting.ts": 'export const greeting = "Hello"\n',
      "vitest.config.mjs": `import { toolTester } from "@opencode-ai/tool-tester/vitest"\nexport default { plugins: [toolTester()] }\n`,
      "greet.test.ts": `import { expect, test } from "vitest"
import { loadTools, runTool } from "@opencode-ai/tool-tester"

test("greet", async () => {
  const project = await loadTools({ directory: import.meta.dirname, global: false })
  expect((await runTool(project, "greet", { name: "Ada" })).output).toBe("Hello, Ada!")
})
`,
    })
    mkdirSync(path.join(directory, "node_modules", "@opencode-ai"), { recursive: true })
    symlinkSync(packageRoot, path.join(directory, "node_modules", "@opencode-ai", "tool-tester"))

    const child = spawn(process.execPath, [vitestBin, "watch", "--root", directory], {
      cwd: directory,
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    })
    onTestFinished(() => killGroup(child.pid))
    let output = ""
    const waiters: Array<() => void> = []
    const onData = (chunk: Buffer) => {
      output += chunk
      for (const waiter of waiters.splice(0)) waiter()
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    const waitFor = (pattern: RegExp, from: number) =>
      new Promise<void>((resolve) => {
        const check = () => (pattern.test(output.slice(from)) ? resolve() : waiters.push(check))
        check()
      })

    await waitFor(/Waiting for file changes/, 0)
    expect(output).toMatch(/Tests +1 passed/)
    const before = output.length
    writeFileSync(path.join(directory, ".opencode/lib/greeting.ts"), 'export const greeting = "Howdy"\n')
    await waitFor(/(Waiting|Watching) for file changes/, before)
    expect(output.slice(before)).toMatch(/RERUN +\.opencode\/lib\/greeting\.ts/)
    expect(output.slice(before)).toMatch(/Tests +1 failed/)

    const later = output.length
    writeFileSync(path.join(directory, ".opencode/tools/greet.ts"), greetTool("Hello"))
    await waitFor(/(Waiting|Watching) for file changes/, later)
    expect(output.slice(later)).toMatch(/RERUN +\.opencode\/tools\/greet\.ts/)
    expect(output.slice(later)).toMatch(/Tests +1 passed/)
  })
})
