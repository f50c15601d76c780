import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { expect, test } from "vitest"

// create-tool may not depend on tool-tester (nor the reverse): each keeps the one quoting module,
// and they must stay the same file, so a command reads the same whichever package printed it.
test("create-tool's and tool-tester's _shell-quote.ts are the same file", () => {
  const read = (relative: string) => readFileSync(fileURLToPath(new URL(relative, import.meta.url)), "utf8")
  expect(read("../src/_shell-quote.ts")).toBe(read("../../tool-tester/src/_shell-quote.ts"))
})
