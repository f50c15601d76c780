// The `error:` line and the tool's file, read from opencode's stderr as the golden recorded it on
// 1.18.34 (test/golden/escaped-errors.json), instead of the stack frame printed last.
import { readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import type { E2EError } from "../../src/e2e/e2e-result.ts"
import { lastUncaughtError } from "../../src/e2e/escaped-error.ts"

type Golden = { runs: Array<{ name: string; errors: E2EError[]; exitCode: number }> }
const golden = JSON.parse(readFileSync(new URL("../golden/escaped-errors.json", import.meta.url), "utf8")) as Golden

const project = path.resolve("/tmp/sandbox/project")
const directories = { project, home: path.resolve("/tmp/sandbox/home") }
/** A run's stderr as opencode printed it there: the golden has the project folder as `<directory>`. */
const stderrOf = (name: string): E2EError[] =>
  golden.runs
    .find((run) => run.name === name)!
    .errors.map((error) => ({ ...error, message: error.message.replaceAll("<directory>", project) }))

describe("lastUncaughtError", () => {
  test("a timer's throw: Bun's error line, and the tool file of the first frame, relative to the project", () => {
    const errors = stderrOf("timer_throw_during")
    expect(errors.at(-1)?.message).toMatch(/^\s+at /)
    expect(lastUncaughtError(errors, directories)).toEqual({
      line: "error: thrown in a timer during execute",
      file: ".opencode/tools/timer_throw_during.ts:8:57",
    })
  })

  test("a rejection: the tool's frame comes before opencode's own ($bunfs)", () => {
    expect(lastUncaughtError(stderrOf("reject_during"), directories)).toEqual({
      line: "error: rejected during execute",
      file: ".opencode/tools/reject_during.ts:7:24",
    })
  })

  test("an EventEmitter error with no listener: only node:events frames, so no file", () => {
    expect(lastUncaughtError(stderrOf("emitter_error"), directories)).toEqual({
      line: "error: emitted with no error listener",
    })
  })

  test("a Windows path, and stderr with no uncaught error", () => {
    const errors: E2EError[] = [
      { source: "stderr", message: "error: boom\r" },
      { source: "stderr", message: "      at <anonymous> (C:\\Users\\me\\project\\.opencode\\tools\\x.ts:3:9)\r" },
    ]
    const found = lastUncaughtError(errors, directories)
    expect(found?.line).toBe("error: boom")
    // Relative only where the platform's paths make it so; the position is kept either way.
    expect(found?.file).toMatch(/x\.ts:3:9$/)
    expect(lastUncaughtError([{ source: "log", message: "ERROR service=x error: not Bun's" }], directories)).toBe(
      undefined,
    )
  })
})
