// What a tool threw reaches the report whole (class, code, cause, stack) under both engines, while
// the model still reads only the message, as in opencode.
import path from "node:path"
import { describe, expect, onTestFinished, test } from "vitest"
import { closeProject, loadTools, runTool } from "../../src/index.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "../support/tmp-project.ts"

describe.each(["bun", "node"] as const)("TOOL_THREW under the %s engine", { timeout: 60_000 }, (engine) => {
  test("keeps the error's class, code, cause and stack in result.error.thrown", async () => {
    const directory = tmpProject({
      ".opencode/tools/fails.ts": toolSource(
        "fails",
        `class QuotaError extends Error { code = "E_QUOTA"; name = "QuotaError" }
         throw new QuotaError("over quota", { cause: Object.assign(new RangeError("limit 10"), { code: 429 }) })`,
      ),
    })
    const { env, home } = isolatedEnvironment()
    const project = await loadTools({ directory, env, home, engine })
    onTestFinished(() => closeProject(project))
    const result = await runTool(project, "fails", {})
    expect(result.output).toBe("over quota")
    expect(result.error).toMatchObject({
      code: "TOOL_THREW",
      thrown: {
        name: "QuotaError",
        message: "over quota",
        code: "E_QUOTA",
        cause: { name: "RangeError", message: "limit 10", code: 429 },
      },
    })
    // Bun imports the file itself; the node engine imports a prepared copy named after it (docs/fidelity.md).
    expect(result.error?.thrown?.stack).toContain(
      engine === "bun" ? path.join(directory, ".opencode/tools/fails.ts") : "fails.ts.",
    )
  })
})
