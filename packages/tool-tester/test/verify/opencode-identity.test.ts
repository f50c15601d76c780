// Telling opencode from other binaries before verify runs anything: a version is no proof (Node
// prints one), `--help` naming `opencode run` is; a binary that does not answer is said to be silent.
import { writeFileSync } from "node:fs"
import path from "node:path"
import { expect, test } from "vitest"
import { opencodeIdentity } from "../../src/verify/opencode-identity.ts"
import { opencode, useTmpDir } from "../helpers.ts"

test("Node is not opencode, though it prints a version", async () => {
  expect(await opencodeIdentity(process.execPath)).toBe("other")
})

test.skipIf(!opencode.binary)(
  `the installed opencode is opencode ${opencode.reason ?? ""}`,
  { timeout: 180_000 },
  async () => {
    expect(await opencodeIdentity(opencode.binary!)).toBe("opencode")
  },
)

test.skipIf(process.platform === "win32")(
  "a binary that does not answer within the bound is silent (a shell script: POSIX)",
  async () => {
    const script = path.join(useTmpDir(), "opencode")
    writeFileSync(script, "#!/bin/sh\nexec sleep 30\n", { mode: 0o755 })
    expect(await opencodeIdentity(script, 500)).toBe("silent")
  },
)
