import { readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { COMMAND_NAMES, commandHelp, globalHelp } from "../../src/cli/command-help.ts"
import { loadTools } from "../../src/index.ts"
import { packageRoot, runCli } from "../helpers.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

const docs = (page: string) => readFileSync(path.join(packageRoot, "..", "..", "docs", page), "utf8")

const greet = `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Greet", args: { name: tool.schema.string() }, async execute(args) { return "Hello, " + args.name } })
`

describe("one piece of advice per task", { timeout: 120_000 }, () => {
  test("a missing npm plugin: the CLI gives the command publishing-a-plugin.md gives, with or without .opencode", async () => {
    const documented = /`(npm install --prefix \.opencode\s+opencode-weather)`/
      .exec(docs("publishing-a-plugin.md"))?.[1]
      ?.replace(/\s+/g, " ")
    expect(documented).toBe("npm install --prefix .opencode opencode-weather")
    for (const files of [
      { "opencode.json": '{ "plugin": ["opencode-weather"] }' },
      {
        "opencode.json": '{ "plugin": ["opencode-weather"] }',
        ".opencode/tools/greet.ts": greet,
      },
    ]) {
      const { env, home } = isolatedEnvironment()
      const directory = tmpProject(files)
      const project = await loadTools({ directory, env, home })
      const messages = project.diagnostics.map((diagnostic) => diagnostic.message).join("\n")
      expect(messages).toContain(`to test it, run ${documented} from the project folder ${directory}`)
    }
  })

  test.each([
    [
      ["schema", "--tool", "gret"],
      'no custom or plugin tool named gret is offered for this model: pick one of greet; did you mean "greet"?',
    ],
    [
      ["fuzz", "gret", "--runs", "1"],
      'no custom or plugin tool is named gret: fuzz one of greet; did you mean "greet"?',
    ],
  ])("%j suggests the tool meant", async (argv, said) => {
    const directory = tmpProject({ ".opencode/tools/greet.ts": greet })
    const result = await runCli([...argv, "--no-global", "--engine", "node"], { cwd: directory })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(said)
  })

  test("every --help ends with a link to its section of docs/cli.md, and that section exists", () => {
    const anchors = new Set(
      docs("cli.md")
        .split("\n")
        .filter((line) => line.startsWith("## "))
        .map((line) => line.slice(3).replaceAll("`", "").trim().toLowerCase().replace(/\s+/g, "-")),
    )
    const url = "https://github.com/opencode-tool-kit/opencode-tool-kit/blob/main/docs/cli.md"
    expect(globalHelp().split("\n").at(-1)).toMatch(new RegExp(`^Docs: ${url.replaceAll(".", "\\.")} `))
    for (const name of COMMAND_NAMES) {
      const footer = commandHelp(name)?.split("\n").at(-1) ?? ""
      expect(footer.startsWith(`Docs: ${url}#${name} `), footer).toBe(true)
      expect(anchors.has(name), `docs/cli.md has a section for ${name}`).toBe(true)
    }
  })
})
