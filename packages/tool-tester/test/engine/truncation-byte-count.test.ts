// Lines with lone surrogates, truncated as the engine's runtime counts them (docs/opencode-contract.md#truncation-rule).
// Bun's `Buffer.byteLength` counts a lone surrogate 2 bytes, or 3 in a string of at most 32 UTF-16
// units on a CPU with AVX-512: opencode measures each line that way, and so does the bun engine,
// which runs in the same Bun. The node engine counts 2, as Bun does on other CPUs. The expected
// preview is computed from what this machine's Bun says of one line, so the test holds on any CPU.
import { spawnSync } from "node:child_process"
import { afterAll, describe, expect, test } from "vitest"
import { closeProject, runTool, type ToolProject } from "../../src/index.ts"
import { opencode } from "../helpers.ts"
import { loadedUnder, toolSource } from "../support/tmp-project.ts"

const LINES = 2001
const WIDTH = 9
const emit = toolSource(
  "lines of lone surrogates",
  `return Array(${LINES}).fill("\\udc00".repeat(${WIDTH})).join("\\n")`,
)

/** What `Buffer.byteLength` gives in the opencode binary's Bun. */
function bunByteLength(expression: string): number {
  const ran = spawnSync(opencode.binary!, ["-e", `process.stdout.write(String(Buffer.byteLength(${expression})))`], {
    env: { ...process.env, BUN_BE_BUN: "1" },
    encoding: "utf8",
  })
  expect(ran.status, ran.stderr).toBe(0)
  return Number(ran.stdout)
}

/** opencode's head walk, for lines that each cost `line` bytes: what is kept, and the count the model reads. */
function expected(line: number, total: number): { kept: number; count: string } {
  let kept = 0
  let bytes = 0
  while (kept < 2000 && bytes + line + (kept > 0 ? 1 : 0) <= 51200) {
    bytes += line + (kept > 0 ? 1 : 0)
    kept += 1
  }
  return { kept, count: kept === 2000 ? `${LINES - kept} lines` : `${total - bytes} bytes` }
}

function readOutput(output: string): { kept: number; count: string | undefined } {
  const [preview = ""] = output.split("\n\n...")
  return { kept: preview.split("\n").length, count: /\.\.\.(-?\d+ (?:lines|bytes)) truncated\.\.\./.exec(output)?.[1] }
}

const projects: ToolProject[] = []
afterAll(async () => {
  for (const project of projects) await closeProject(project)
})

describe.skipIf(!opencode.binary)(
  `2001 lines of 9 lone surrogates ${opencode.reason ?? ""}`,
  { timeout: 120_000 },
  () => {
    test("the bun engine keeps the lines this machine's Bun (opencode's) keeps", async () => {
      const line = bunByteLength(`"\\udc00".repeat(${WIDTH})`)
      const total = bunByteLength(`Array(${LINES}).fill("\\udc00".repeat(${WIDTH})).join("\\n")`)
      // 2 or 3 bytes a surrogate, by the CPU; the whole text (long) at 2.
      expect([WIDTH * 2, WIDTH * 3]).toContain(line)
      expect(total).toBe(LINES * WIDTH * 2 + LINES - 1)
      const { project } = await loadedUnder("bun", { ".opencode/tools/emit.ts": emit })
      projects.push(project)
      const result = await runTool(project, "emit", {})
      expect(result.truncated).toBe(true)
      expect(readOutput(result.output)).toEqual(expected(line, total))
    })
  },
)

test("the node engine counts 2 bytes a lone surrogate: 2000 lines kept, the rest counted in lines", {
  timeout: 120_000,
}, async () => {
  const { project } = await loadedUnder("node", { ".opencode/tools/emit.ts": emit })
  projects.push(project)
  const result = await runTool(project, "emit", {})
  expect(readOutput(result.output)).toEqual({ kept: 2000, count: "1 lines" })
})
