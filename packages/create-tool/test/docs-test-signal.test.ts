import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { expect, test } from "vitest"
import { callText, workspaceDirectory } from "./helpers.ts"

// docs/testing-a-tool.md tells readers to pass the test context's `signal` to every call, so that a
// call that hangs ends at the test's timeout instead of running on into the tests after it. The
// examples did not, and neither did create-tool's generated tests: a reader copies the examples.
// Every test in a code block of the READMEs and docs/ that runs a tool (runTool, callTool,
// toLoadInOpencode, fuzzTool) takes `{ signal }` from its context and hands it to each of those calls.

const pages = [
  join(workspaceDirectory, "README.md"),
  ...["create-tool", "plugin", "tool-tester"].map((name) => join(workspaceDirectory, "packages", name, "README.md")),
  ...readdirSync(join(workspaceDirectory, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(workspaceDirectory, "docs", name)),
]

/** The ts and js code blocks of a page, with the line each starts on. */
function codeBlocks(page: string): Array<{ line: number; code: string }> {
  const lines = readFileSync(page, "utf8").split("\n")
  const blocks: Array<{ line: number; code: string }> = []
  for (let index = 0; index < lines.length; index++) {
    if (!/^```(ts|js)$/.test(lines[index]!.trim())) continue
    const end = lines.findIndex((line, at) => at > index && line.trim() === "```")
    blocks.push({ line: index + 1, code: lines.slice(index + 1, end).join("\n") })
    index = end
  }
  return blocks
}

test("every documented test that runs a tool passes the test context's signal to each call", () => {
  const missing: string[] = []
  for (const page of pages)
    for (const block of codeBlocks(page))
      for (const part of block.code.split(/\n(?=\s*(?:test|it)(?:\.\w+)?\()/)) {
        if (!/^\s*(test|it)\b/.test(part)) continue
        const calls = [...part.matchAll(/\b(runTool|callTool|toLoadInOpencode|fuzzTool)\(/g)]
        if (calls.length === 0) continue
        const where = `${relative(workspaceDirectory, page)}:${block.line} ${part.split("\n")[0]!.trim()}`
        if (!/async \(\{ signal \}\) => \{/.test(part)) missing.push(`${where}: the test does not take { signal }`)
        for (const call of calls) {
          const text = callText(part, call.index)
          if (!/[{,]\s*signal\s*\}[\s,]*\)$/.test(text)) missing.push(`${where}: ${text.split("\n")[0]}`)
        }
      }
  expect(missing).toEqual([])
})
