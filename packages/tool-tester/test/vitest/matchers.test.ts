import { spawn } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { packageRoot } from "../helpers.ts"
import { tmpProject } from "../support/tmp-project.ts"

// The matchers as a user meets them: a project with its own test file importing
// `@opencode-ai/tool-tester/vitest` (linked into its node_modules like an install), run by vitest.
const vitestBin = path.resolve(packageRoot, "..", "..", "node_modules", "vitest", "vitest.mjs")

const greetTool = (greeting: string) => `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Greets someone",
  args: { name: tool.schema.string().describe("Who to greet") },
  async execute(args) { return "${greeting}, " + args.name + "!" },
})
`

const greetTest = `import { expect, test } from "vitest"
import "@opencode-ai/tool-tester/vitest"
import { loadTools, runTool } from "@opencode-ai/tool-tester"

test("greet", async () => {
  const project = await loadTools({ directory: import.meta.dirname, global: false })
  expect(await runTool(project, "greet", { name: "Ada" })).toMatchModelView()
  await expect(project).toMatchProviderSchemas(["openai", "google"])
  await expect(project).toBeAcceptedBy("google")
})
`

function userProject(files: Record<string, string>): string {
  // Its own config, so vitest does not pick up this package's from a parent folder.
  const directory = tmpProject({ "vitest.config.mjs": "export default { test: {} }\n", ...files })
  mkdirSync(path.join(directory, "node_modules", "@opencode-ai"), { recursive: true })
  symlinkSync(packageRoot, path.join(directory, "node_modules", "@opencode-ai", "tool-tester"))
  return directory
}

function vitest(directory: string, args: string[] = []): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vitestBin, "run", "--root", directory, ...args], {
      cwd: directory,
      env: { ...process.env, CI: "true", FORCE_COLOR: "0", NO_COLOR: "1" },
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, output }))
  })
}

describe("@opencode-ai/tool-tester/vitest", { timeout: 180_000 }, () => {
  test("snapshots the model view and provider schemas: -u writes them, a change fails with a diff, -u updates", async () => {
    const directory = userProject({ ".opencode/tools/greet.ts": greetTool("Hello"), "greet.test.ts": greetTest })
    const snapshotFile = path.join(directory, "__snapshots__", "greet.test.ts.snap")

    const written = await vitest(directory, ["-u"])
    expect(written.code, written.output).toBe(0)
    const snapshot = readFileSync(snapshotFile, "utf8")
    expect(snapshot).toContain('exports[`greet 1`] = `\n"tool: greet\nstatus: completed\noutput:\nHello, Ada!"\n`;')
    expect(snapshot).toContain('"google": [')
    expect(snapshot).toContain('"description": "Who to greet"')

    const again = await vitest(directory)
    expect(again.code, again.output).toBe(0)

    writeFileSync(path.join(directory, ".opencode/tools/greet.ts"), greetTool("Howdy"))
    const changed = await vitest(directory)
    expect(changed.code).toBe(1)
    expect(changed.output).toContain("Snapshot `greet 1` mismatched")
    expect(changed.output).toMatch(/- +Hello, Ada!/)
    expect(changed.output).toMatch(/\+ +Howdy, Ada!/)

    const updated = await vitest(directory, ["-u"])
    expect(updated.code, updated.output).toBe(0)
    expect(readFileSync(snapshotFile, "utf8")).toContain("Howdy, Ada!")

    // A schema change: only the provider schemas' snapshot fails, with the changed description in the diff.
    writeFileSync(
      path.join(directory, ".opencode/tools/greet.ts"),
      greetTool("Howdy").replace('"Who to greet"', '"The person to greet"'),
    )
    const schemaChanged = await vitest(directory)
    expect(schemaChanged.code).toBe(1)
    expect(schemaChanged.output).toContain("Snapshot `greet 2` mismatched")
    expect(schemaChanged.output).not.toContain("Snapshot `greet 1` mismatched")
    expect(schemaChanged.output).toMatch(/- +"description": "Who to greet"/)
    expect(schemaChanged.output).toMatch(/\+ +"description": "The person to greet"/)
  })

  test("toBeAcceptedBy fails with the provider's rule; paths in the model view are normalised", async () => {
    const directory = userProject({
      ".opencode/tools/prefs.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Preferences",
  args: { options: tool.schema.object({}) },
  async execute(_args, context) { return "saved in " + context.directory },
})
`,
      "prefs.test.ts": `import { expect, test } from "vitest"
import "@opencode-ai/tool-tester/vitest"
import { loadTools, runTool } from "@opencode-ai/tool-tester"

test("paths", async () => {
  const project = await loadTools({ directory: import.meta.dirname, global: false })
  expect(await runTool(project, "prefs", { options: {} })).toMatchModelView()
})

test("accepted by openai", async () => {
  const project = await loadTools({ directory: import.meta.dirname, global: false })
  await expect(project).toBeAcceptedBy("openai")
  await expect(project).not.toBeAcceptedBy("google")
})

test("accepted by google", async () => {
  const project = await loadTools({ directory: import.meta.dirname, global: false })
  await expect(project).toBeAcceptedBy("google")
})
`,
    })
    const result = await vitest(directory, ["-u"])
    expect(result.code).toBe(1)
    expect(result.output).toContain("expected Gemini (@ai-sdk/google) to accept every tool, but it rejects:")
    expect(result.output).toContain("prefs: options is an object with no properties")
    expect(result.output).toContain("(rule gemini/empty-object)")
    expect(result.output).toMatch(/Tests +1 failed \| 2 passed/)
    const snapshot = readFileSync(path.join(directory, "__snapshots__", "prefs.test.ts.snap"), "utf8")
    expect(snapshot).toContain("saved in <cwd>")
    expect(existsSync(directory)).toBe(true)
  })

  test("toMatchInlineModelView: checked against the text in the test file, rewritten there by -u", async () => {
    const inline = (greeting: string) => `import { expect, test } from "vitest"
import "@opencode-ai/tool-tester/vitest"
import { loadTools, runTool } from "@opencode-ai/tool-tester"

test("greet", async () => {
  const project = await loadTools({ directory: import.meta.dirname, global: false })
  expect(await runTool(project, "greet", { name: "Ada" })).toMatchInlineModelView(\`
    "tool: greet
    status: completed
    output:
    ${greeting}, Ada!"
  \`)
})
`
    const directory = userProject({ ".opencode/tools/greet.ts": greetTool("Hello"), "greet.test.ts": inline("Hello") })
    const passes = await vitest(directory)
    expect(passes.code, passes.output).toBe(0)

    writeFileSync(path.join(directory, ".opencode/tools/greet.ts"), greetTool("Howdy"))
    const changed = await vitest(directory)
    expect(changed.code).toBe(1)
    expect(changed.output).toMatch(/- +Hello, Ada!/)
    expect(changed.output).toMatch(/\+ +Howdy, Ada!/)

    const updated = await vitest(directory, ["-u"])
    expect(updated.code, updated.output).toBe(0)
    expect(readFileSync(path.join(directory, "greet.test.ts"), "utf8")).toBe(inline("Howdy"))
  })
})
