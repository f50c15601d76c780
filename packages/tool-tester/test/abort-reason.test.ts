// What a tool's context.abort carries when its call is stopped. In opencode 1.18.34 the only stop
// is the session's abort, and its reason is Bun's DOMException "AbortError: The operation was
// aborted." (observed through eval's abort of a timed-out trial: docs/opencode-contract.md#abort).
// A timeout or a caller's signal used to give Error("timeout"), the caller's own reason, or
// Error("aborted") across the engine's channel: a tool telling a stop apart by its reason
// behaved otherwise in opencode.
import { readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { runTool } from "../src/index.ts"
import { opencode } from "./helpers.ts"
import { loadedUnder, toolSource } from "./support/tmp-project.ts"

const opencodeReason = "AbortError|The operation was aborted.|true"

const waits = toolSource(
  "waits",
  `const { writeFileSync } = await import("node:fs")
  return new Promise((resolve) => {
    const done = () => {
      const reason = context.abort.reason
      writeFileSync(args.file, [reason?.name, reason?.message, reason instanceof DOMException].join("|"))
      resolve("stopped")
    }
    if (context.abort.aborted) done()
    else context.abort.addEventListener("abort", done)
  })`,
  "{ file: tool.schema.string() }",
)

describe("the reason a stopped call's context.abort carries", () => {
  for (const engine of ["node", "bun"] as const) {
    const skip = engine === "bun" ? opencode.reason : undefined
    test.skipIf(skip !== undefined)(
      `is opencode's, for a timeout and for a caller's signal, under the ${engine} engine${skip ? ` (${skip})` : ""}`,
      { timeout: 120_000 },
      async () => {
        const { project, directory } = await loadedUnder(engine, { ".opencode/tools/waits.ts": waits })
        const timedOut = path.join(directory, "timed-out.txt")
        expect(await runTool(project, "waits", { file: timedOut }, { timeoutMs: 300 })).toMatchObject({
          error: { code: "TOOL_TIMEOUT" },
        })
        const signalled = path.join(directory, "signalled.txt")
        const controller = new AbortController()
        const running = runTool(project, "waits", { file: signalled }, { signal: controller.signal })
        setTimeout(() => controller.abort(new Error("the caller's own reason")), 300)
        expect(await running).toMatchObject({ status: "completed", output: "stopped" })
        // The timed-out call's abort listener ran when the timeout fired, before runTool returned.
        expect(readFileSync(timedOut, "utf8")).toBe(opencodeReason)
        expect(readFileSync(signalled, "utf8")).toBe(opencodeReason)
      },
    )
  }
})
