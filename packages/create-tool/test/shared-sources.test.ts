import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { expect, test } from "vitest"

// create-tool may not depend on tool-tester (nor the reverse): quoting, "did you mean" and the
// colour switch are tool-tester's files, and create-tool's copies are written from them, so a
// command, a suggestion and a coloured line follow the same rule whichever package printed them.
test("create-tool's copies of the shared modules are tool-tester's files as they are now", () => {
  const script = fileURLToPath(new URL("../../../scripts/shared-sources.mjs", import.meta.url))
  expect(() => execFileSync(process.execPath, [script, "--check"], { stdio: "pipe" })).not.toThrow()
})
