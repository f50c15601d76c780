// A tool's process.exit(code) is reported with the status the OS sees, under both engines: the
// bun engine's process really exits, so it always was; the node engine catches the call in this
// process (runtime/exit-in-call.ts) and reported the value passed, so exit(256) was "process.exit(256)"
// there and "process.exit(0)" under Bun. A code Node and Bun refuse (1.5) throws their RangeError,
// which the tool sees as any throw, under both.
import { describe, expect, onTestFinished, test } from "vitest"
import { closeProject, runTool } from "../../src/index.ts"
import { opencode } from "../helpers.ts"
import { loadedUnder, toolSource } from "../support/tmp-project.ts"

const exits = toolSource(
  "exits",
  "process.exit(args.code)",
  "{ code: tool.schema.union([tool.schema.number(), tool.schema.string()]) }",
)
const exitedWith = (code: number) =>
  `the tool ended its process with process.exit(${code}); under opencode that stops opencode itself: throw an Error instead`
// The low 8 bits off Windows; all 32 there, unsigned.
const status = (code: number) => (process.platform === "win32" ? code >>> 0 : code & 0xff)

describe("the exit status a tool's process.exit is reported with", () => {
  for (const engine of ["node", "bun"] as const) {
    const skip = engine === "bun" ? opencode.reason : undefined
    test.skipIf(skip !== undefined)(
      `is what the OS sees, under the ${engine} engine${skip ? ` (${skip})` : ""}`,
      { timeout: 120_000 },
      async () => {
        const { project } = await loadedUnder(engine, { ".opencode/tools/exits.ts": exits })
        onTestFinished(() => closeProject(project))
        for (const [code, seen] of [
          [256, status(256)],
          [-1, status(-1)],
          ["2", 2],
        ] as const) {
          expect(await runTool(project, "exits", { code }), String(code)).toMatchObject({
            status: "error",
            error: { code: "TOOL_EXITED", message: exitedWith(seen) },
          })
        }
        expect(await runTool(project, "exits", { code: 1.5 })).toMatchObject({
          status: "error",
          error: { code: "TOOL_THREW" },
          output: 'The value of "code" is out of range. It must be an integer. Received 1.5',
        })
      },
    )
  }
})
