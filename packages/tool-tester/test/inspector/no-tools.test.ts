// A tool file that fails to import takes opencode's whole tool list down
// (docs/opencode-contract.md#tool-files): the inspector's session then offers no tools and runs no
// call, and a fixed file brings them back. Without a browser, so it runs where chromium is absent.
import { writeFileSync } from "node:fs"
import path from "node:path"
import { expect, test } from "vitest"
import type { Finding } from "../../src/doctor/finding.ts"
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

test("while a tool file fails to import, the project's problems say nothing of the tools that are not offered", {
  timeout: 120_000,
}, async () => {
  const goodFile = path.join(".opencode", "tools", "good.ts")
  const otherFile = path.join(".opencode", "tools", "other.ts")
  // doctor's findings as it gives them for such a project: the import failure, a provider's
  // rejection of good's schema, and one that names no file.
  const findings: Finding[] = [
    { code: "IMPORT_FAILED", severity: "error", file: otherFile, message: "failed to import" },
    { code: "PROVIDER_REJECTS", severity: "error", file: goodFile, message: "Gemini rejects good" },
    { code: "OPENCODE_VERSION", severity: "warning", file: null, message: "another opencode" },
  ]
  let answer = () => {}
  const answered = new Promise<void>((resolve) => (answer = resolve))
  const { session, directory } = await startedSession(
    {
      // A warning at load about good.ts: an export that is almost a tool.
      ".opencode/tools/good.ts": `${good}\nexport const half = { description: "no args, no execute" }\n`,
      ".opencode/tools/other.ts": other("return ("),
    },
    // doctor's answer waits for the test: what the load alone shows is seen first.
    { diagnose: () => answered.then(() => findings) },
  )
  const files = (view = session.view()!) => view.problems.map((problem) => `${problem.code} ${problem.file}`)
  const loaded = session.view()!
  expect(loaded.noTools?.code).toBe("IMPORT_FAILED")
  expect(files(loaded)).toEqual([`IMPORT_FAILED ${path.join(directory, otherFile)}`])
  answer()
  await expect.poll(() => session.view()?.diagnosed, { timeout: 60_000 }).toBe(true)
  expect(files()).toEqual([`IMPORT_FAILED ${otherFile}`, "OPENCODE_VERSION null"])

  // Fixed: good is offered again, and what is said of it is listed with it.
  writeFileSync(path.join(directory, otherFile), other('return "fine"'))
  findings.splice(0, 1)
  await session.reload()
  await expect.poll(() => session.view()?.diagnosed, { timeout: 60_000 }).toBe(true)
  const fixed = session.view()!
  expect(fixed.noTools).toBeUndefined()
  expect(fixed.tools.find((tool) => tool.id === "good")?.findings.map((finding) => finding.message)).toEqual([
    "Gemini rejects good",
  ])
})
