// Files tool-tester would read whole (plugin and tool modules, opencode.json) that are not regular
// files, or are huge, or nest deeper than a parser can recurse: each is refused with a named code
// before it is read, under both engines, instead of growing the process, hanging or crashing.
import { execFileSync } from "node:child_process"
import { truncateSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { jsonError, runCli, useTmpDir, writeFiles } from "../helpers.ts"

const ENGINES = ["bun", "node"] as const
const posix = process.platform !== "win32"

function project(plugin: string): string {
  const directory = useTmpDir("tool-tester-unreadable-")
  writeFiles(directory, { "opencode.json": JSON.stringify({ plugin: [plugin] }) })
  return directory
}

async function list(directory: string, engine: string) {
  return runCli(["list", "--dir", directory, "--no-global", "--json", "--engine", engine])
}

describe.each(ENGINES)("%s engine: sources that cannot be read whole", { timeout: 120_000 }, (engine) => {
  test.skipIf(!posix)(
    "a plugin that is /dev/zero is IMPORT_FAILED, not read forever (POSIX: no /dev/zero on Windows)",
    async () => {
      const result = await list(project("/dev/zero"), engine)
      expect(result.exitCode).toBe(3)
      expect(jsonError(result)).toMatchObject({
        code: "IMPORT_FAILED",
        message: expect.stringContaining("not a regular file"),
      })
      expect(JSON.parse(result.stdout)).toMatchObject({ diagnostics: [{ code: "IMPORT_FAILED", file: "/dev/zero" }] })
    },
  )

  // doctor also scans each plugin's source for Bun's APIs: that read must not wait on the FIFO either.
  test.skipIf(!posix).each(["list", "doctor"])(
    "%s: a plugin that is a FIFO is IMPORT_FAILED, and the command exits (POSIX: mkfifo)",
    async (command) => {
      const directory = project("./plugin.ts")
      execFileSync("mkfifo", [path.join(directory, "plugin.ts")])
      const result = await runCli([command, "--dir", directory, "--no-global", "--json", "--engine", engine])
      expect(result.exitCode).toBe(3)
      expect(jsonError(result)).toMatchObject({ code: "IMPORT_FAILED", message: expect.stringContaining("a FIFO") })
    },
  )

  // The import fails; the advice on it reads the tsconfig.json for a `paths` key, and must not wait on it.
  test.skipIf(!posix)(
    "a tsconfig.json that is a FIFO, beside a tool importing a path alias: the import failure is reported (POSIX: mkfifo)",
    async () => {
      const directory = useTmpDir("tool-tester-unreadable-")
      writeFiles(directory, {
        ".opencode/tools/aliased.ts":
          'import { x } from "@/lib/x"\nexport default { description: "d", args: {}, async execute() { return x } }\n',
      })
      execFileSync("mkfifo", [path.join(directory, ".opencode", "tsconfig.json")])
      const result = await list(directory, engine)
      expect(result.exitCode).toBe(3)
      expect(jsonError(result)).toMatchObject({ code: "IMPORT_FAILED", message: expect.stringContaining("@/lib") })
    },
  )

  test("a plugin file larger than 64 MiB is IMPORT_FAILED before it is read", async () => {
    const directory = project("./plugin.js")
    const file = path.join(directory, "plugin.js")
    writeFileSync(file, "")
    truncateSync(file, 64 * 1024 * 1024 + 1)
    const result = await list(directory, engine)
    expect(result.exitCode).toBe(3)
    expect(jsonError(result)).toMatchObject({
      code: "IMPORT_FAILED",
      message: expect.stringContaining("67108865 bytes"),
    })
  })

  test("an opencode.json with a million unclosed [ is CONFIG_INVALID, not a stack overflow", async () => {
    const directory = useTmpDir("tool-tester-unreadable-")
    writeFileSync(path.join(directory, "opencode.json"), `{"a":${"[".repeat(1_000_000)}`)
    const result = await list(directory, engine)
    expect(result.exitCode).toBe(3)
    expect(jsonError(result)).toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringContaining("nested too deeply"),
    })
  })

  test("an opencode.json nested 100k levels deep (with a comment, so the JSONC parser reads it) is CONFIG_INVALID", async () => {
    const directory = useTmpDir("tool-tester-unreadable-")
    const depth = 100_000
    writeFileSync(path.join(directory, "opencode.json"), `// deep\n{"a":${"[".repeat(depth)}${"]".repeat(depth)}}`)
    const result = await list(directory, engine)
    expect(result.exitCode).toBe(3)
    expect(jsonError(result)).toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringContaining("nested too deeply"),
    })
  })
})
