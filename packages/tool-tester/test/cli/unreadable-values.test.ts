// Values a tool hands tool-tester that throw when they are read (a getter, a Proxy's trap, a
// revoked Proxy): they are the tool's problem, reported as such, never INTERNAL (docs/errors.md).
import path from "node:path"
import { describe, expect, test } from "vitest"
import { jsonError, runCli, useTmpDir, writeFiles } from "../helpers.ts"

const ENGINES = ["bun", "node"] as const

describe("values that throw when read", { timeout: 60_000 }, () => {
  test.each(ENGINES)(
    "run --json: metadata that throws when opencode copies it fails the call; arguments or an ask's metadata that throw when read get a marker (%s engine)",
    async (engine) => {
      const directory = useTmpDir()
      writeFiles(directory, {
        ".opencode/tools/unreadable.ts": `const boom = () => { throw new Error("getter boom") }
export const metadata = { description: "", args: {}, execute: async () => ({ output: "hello", metadata: { nested: { get boom() { return boom() } } } }) }
export const revoked = { description: "", args: {}, execute: async () => {
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  return { output: "hello", metadata: { p: proxy } }
} }
export const args = { description: "", args: {}, execute: async (args: object) => {
  Object.defineProperty(args, "z", { enumerable: true, get: boom })
  return "fine"
} }
export const ask = { description: "", args: {}, execute: async (_args: object, context: any) => {
  await context.ask({ permission: "x", patterns: ["*"], always: [], metadata: { get k() { return boom() } } })
  return "fine"
} }
`,
      })
      const marker = "[threw when read: getter boom]"
      const run = async (name: string) => {
        const result = await runCli(["run", name, "--no-global", "--json", "--engine", engine], { cwd: directory })
        expect(result.stderr, name).toBe("")
        expect(result.exitCode, name).toBe(0)
        return JSON.parse(result.stdout) as Record<string, unknown>
      }
      // Metadata is copied by opencode before the model reads anything: a getter below its top level
      // that throws, or any Proxy there, ends opencode's whole run (test/opencode-copy.test.ts).
      const ended = async (name: string, error: string) => {
        const result = await runCli(["run", name, "--no-global", "--json", "--engine", engine], { cwd: directory })
        expect(result.exitCode, name).toBe(4)
        expect(JSON.parse(result.stdout)).toMatchObject({
          status: "error",
          output: `(no answer: opencode's run ended with "${error}")`,
          error: { code: "TOOL_BAD_RESULT" },
        })
      }
      await ended("unreadable_metadata", "getter boom")
      await ended("unreadable_revoked", "The object can not be cloned.")
      expect(await run("unreadable_args")).toMatchObject({ status: "completed", output: "fine", args: { z: marker } })
      expect(await run("unreadable_ask")).toMatchObject({
        status: "completed",
        asks: [{ permission: "x", metadata: { k: marker } }],
      })
    },
  )

  test.each(ENGINES)(
    "a tool file whose description getter or has trap throws is IMPORT_FAILED for list, schema, doctor and the run of another tool (%s engine)",
    async (engine) => {
      const directory = useTmpDir()
      writeFiles(directory, {
        ".opencode/tools/ok.ts": `export default { description: "good", args: {}, execute: async () => "ok" }\n`,
        ".opencode/tools/getter.ts": `const definition = { description: "x", args: {}, execute: async () => "ok" }
Object.defineProperty(definition, "description", { get() { throw new Error("desc getter") } })
export default definition
`,
        ".opencode/tools/trap.ts": `export default new Proxy({}, { has() { throw new Error("has trap") } })\n`,
      })
      const getter = `${path.join(directory, ".opencode/tools/getter.ts")}: opencode cannot load its export default: reading its description threw: desc getter`
      const trap = `${path.join(directory, ".opencode/tools/trap.ts")}: opencode cannot load its export default: checking it for the args, description and execute keys threw: has trap`
      const cli = (...args: string[]) => runCli([...args, "--no-global", "--engine", engine], { cwd: directory })

      const list = await cli("list", "--json")
      expect(list.exitCode).toBe(3)
      const listed = JSON.parse(list.stdout) as {
        tools: Array<{ id: string }>
        diagnostics: Array<{ code: string; message: string }>
      }
      expect(listed.tools.map((tool) => tool.id)).toContain("ok")
      expect(listed.diagnostics.map(({ code, message }) => ({ code, message }))).toEqual(
        expect.arrayContaining([
          { code: "IMPORT_FAILED", message: getter },
          { code: "IMPORT_FAILED", message: trap },
        ]),
      )
      expect(jsonError(list).code).toBe("IMPORT_FAILED")

      const schema = await cli("schema")
      expect(schema.exitCode).toBe(3)
      expect(schema.stdout + schema.stderr).toContain("reading its description threw: desc getter [IMPORT_FAILED]")

      const doctor = await cli("doctor")
      expect(doctor.exitCode).toBe(3)
      expect(doctor.stdout + doctor.stderr).toContain(
        "reading its description threw: desc getter; opencode fails its whole tool list when one file does not import: fix the file [IMPORT_FAILED]",
      )
      expect(doctor.stdout + doctor.stderr).not.toContain("INTERNAL")

      const run = await cli("run", "ok", "--json")
      expect(run.exitCode).toBe(3)
      expect(JSON.parse(run.stdout)).toMatchObject({ status: "completed", output: "ok" })
      expect(jsonError(run).code).toBe("IMPORT_FAILED")
    },
  )
})
