// A tool file that calls process.exit() while it is imported ends the engine: it is an
// IMPORT_FAILED like a file that throws at import, and with --json list, schema and doctor still
// print their one document on stdout (docs/cli.md#exit-codes), with nothing listed and the file's
// problem in it, beside the failure line on stderr.
import { describe, expect, test } from "vitest"
import { jsonError, runCli } from "../helpers.ts"
import { tmpProject } from "../support/tmp-project.ts"

const EXITS = "process.exit(0)\n"
const THROWS = 'throw new Error("boom at import")\n'

function project(source: string): { directory: string; file: string } {
  const directory = tmpProject({ ".opencode/tools/bad.ts": source })
  return { directory, file: `${directory}/.opencode/tools/bad.ts` }
}

const json = async (command: string, directory: string, engine: string) => {
  const result = await runCli([command, "--dir", directory, "--no-global", "--json", "--engine", engine])
  return { ...result, document: JSON.parse(result.stdout) as Record<string, unknown> }
}

describe.each(["node", "bun"])(
  "--json when a tool file ends the process at import (%s engine)",
  { timeout: 120_000 },
  (engine) => {
    test("list prints no tools and the IMPORT_FAILED diagnostic, exit 3, as for a file that throws", async () => {
      const { directory, file } = project(EXITS)
      const result = await json("list", directory, engine)
      expect(result.exitCode).toBe(3)
      expect(result.stdout.trim().split("\n")).toHaveLength(1)
      expect(result.document).toEqual({
        tools: [],
        hidden: [],
        diagnostics: [
          {
            code: "IMPORT_FAILED",
            severity: "error",
            message: `${file}: ended the process while loading (process.exit(0)); opencode itself would exit: remove the process.exit call`,
            file,
            data: { file },
          },
        ],
        engine: expect.objectContaining({ name: engine }),
      })
      expect(jsonError(result).code).toBe("IMPORT_FAILED")
      // The same keys as the document of a file that throws at import.
      const throws = await json("list", project(THROWS).directory, engine)
      expect(Object.keys(result.document)).toEqual(Object.keys(throws.document))
    })

    test("doctor prints the IMPORT_FAILED finding for the file, exit 3, as for a file that throws", async () => {
      const { directory, file } = project(EXITS)
      const result = await json("doctor", directory, engine)
      expect(result.exitCode).toBe(3)
      expect(result.document).toEqual({
        findings: [
          {
            code: "IMPORT_FAILED",
            severity: "error",
            file,
            message:
              "ended the process while loading (process.exit(0)); opencode itself would exit: remove the process.exit call",
          },
        ],
        engine: expect.objectContaining({ name: engine }),
      })
      expect(jsonError(result).code).toBe("IMPORT_FAILED")
    })

    test("schema prints no tools and the IMPORT_FAILED diagnostic, exit 3", async () => {
      const { directory, file } = project(EXITS)
      const result = await json("schema", directory, engine)
      expect(result.exitCode).toBe(3)
      expect(result.document).toMatchObject({ tools: [], diagnostics: [{ code: "IMPORT_FAILED", file }] })
      expect(jsonError(result).code).toBe("IMPORT_FAILED")
    })
  },
)

test("without --json, list says it on one line on stderr and prints nothing on stdout", {
  timeout: 120_000,
}, async () => {
  const { directory, file } = project(EXITS)
  const result = await runCli(["list", "--dir", directory, "--no-global", "--engine", "node"])
  expect(result.exitCode).toBe(3)
  expect(result.stdout).toBe("")
  expect(result.stderr).toContain(`${file}: ended the process while loading (process.exit(0))`)
})
