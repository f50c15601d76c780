// doctor's one call of each tool, from the library (the vitest matcher toLoadInOpencode): a tool that
// ends its engine would end opencode, and is an error; one that throws on made-up arguments is not.
import { describe, expect, test } from "vitest"
import { resultFindings } from "../../src/doctor/results.ts"
import { closeProject, loadTools } from "../../src/index.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

const toolWith = (execute: string) => `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "t", args: { city: tool.schema.string() }, async execute(args) { ${execute} } })
`

describe("resultFindings", { timeout: 60_000 }, () => {
  test("a call that ends the bun engine is ENDS_OPENCODE, an error naming the tool and its arguments", async () => {
    const directory = tmpProject({
      ".opencode/tools/exits.ts": toolWith("process.exit(0)"),
      ".opencode/tools/refuses.ts": toolWith('throw new Error("no such city")'),
      ".opencode/tools/fine.ts": toolWith('return "sunny in " + args.city'),
    })
    const { env, home } = isolatedEnvironment()
    const project = await loadTools({ directory, env, home, global: false, engine: "bun" })
    try {
      const findings = await resultFindings(project)
      expect(findings).toEqual([
        {
          code: "ENDS_OPENCODE",
          severity: "error",
          file: expect.stringMatching(/exits\.ts$/),
          message: expect.stringMatching(
            /^exits called with \{"city":".*"\}: the tool ended its process with process\.exit\(0\); under opencode that stops opencode itself: throw an Error instead$/,
          ),
          data: { tool: "exits", args: { city: expect.any(String) } },
        },
      ])
    } finally {
      await closeProject(project)
    }
  })
})
