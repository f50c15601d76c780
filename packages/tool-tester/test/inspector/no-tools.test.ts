// A tool file that fails to import takes opencode's whole tool list down
// (docs/opencode-contract.md#tool-files): the inspector's session then offers no tools and runs no
// call, and a fixed file brings them back. Without a browser, so it runs where chromium is absent.
import { writeFileSync } from "node:fs"
import path from "node:path"
import { expect, test } from "vitest"
import { startedSession } from "./_inspector.ts"

const good = `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Says ok", args: {}, async execute() { return "ok" } })
`
const other = (body: string) => `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Another tool", args: {}, async execute() { ${body} } })
`

test("while a tool file fails to import, no tool is offered and a call records IMPORT_FAILED instead of running", {
  timeout: 120_000,
}, async () => {
  const { session, directory } = await startedSession({
    ".opencode/tools/good.ts": good,
    ".opencode/tools/other.ts": other("return ("),
  })
  const broken = session.view()!
  expect(broken.error).toBeUndefined()
  expect(broken.noTools?.code).toBe("IMPORT_FAILED")
  expect(broken.noTools?.message).toContain(path.join(".opencode", "tools", "other.ts"))
  expect(broken.tools).toEqual([])
  expect(Object.values(broken.schemas).every((entry) => "error" in entry)).toBe(true)
  const refused = await session.call({ name: "good", form: "args", args: {} })
  expect(refused.result).toBeUndefined()
  expect(refused.error?.code).toBe("IMPORT_FAILED")

  writeFileSync(path.join(directory, ".opencode", "tools", "other.ts"), other('return "fine"'))
  await session.reload()
  const fixed = session.view()!
  expect(fixed.noTools).toBeUndefined()
  expect(fixed.tools.filter((tool) => tool.source === "file").map((tool) => tool.id)).toEqual(["good", "other"])
  // The reload re-ran the last call, which runs now.
  const rerun = session.history().at(-1)!
  expect(rerun.trigger).toBe("reload")
  expect(rerun.result?.status).toBe("completed")
  expect(rerun.result?.output).toBe("ok")
})

test("a plugin that fails to import loses only its own tools: the file tools are offered and run", {
  timeout: 120_000,
}, async () => {
  const { session } = await startedSession({
    ".opencode/tools/good.ts": good,
    ".opencode/plugins/broken.ts": "export const Broken = (",
  })
  const view = session.view()!
  expect(view.noTools).toBeUndefined()
  expect(view.problems.map((problem) => problem.code)).toContain("IMPORT_FAILED")
  expect(view.tools.filter((tool) => tool.source === "file").map((tool) => tool.id)).toEqual(["good"])
  const call = await session.call({ name: "good", form: "args", args: {} })
  expect(call.result?.output).toBe("ok")
})
