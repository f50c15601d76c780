// docs/evals.md shows a terminal report and JSON case files: the report must be what
// formatEvalTable prints for that run, and every JSON block must parse; a block of cases must be
// cases eval takes (the page's "Every kind" example once used an $exact eval refused).
import { readFileSync } from "node:fs"
import path from "node:path"
import { expect, test } from "vitest"
import { formatKeyPath, validateCase } from "../../src/eval-cases/validate-case.ts"
import { compareWithPrevious, formatEvalTable } from "../../src/eval/report/index.ts"
import { packageRoot } from "../helpers.ts"
import { docsExample } from "./_report-sample.ts"

const page = readFileSync(path.join(packageRoot, "..", "..", "docs", "evals.md"), "utf8")

/** The fenced blocks of the page whose fence names `language` ("" for a bare fence). */
function blocks(language: string): string[] {
  const found: string[] = []
  let open: { language: string; lines: string[] } | undefined
  for (const line of page.split("\n")) {
    const fence = /^\s*```(\w*)\s*$/.exec(line)
    if (open && fence && fence[1] === "") {
      if (open.language === language) found.push(open.lines.join("\n"))
      open = undefined
    } else if (open) {
      open.lines.push(line)
    } else if (fence) {
      open = { language: fence[1] ?? "", lines: [] }
    }
  }
  return found
}

test("the report docs/evals.md shows is what formatEvalTable prints for that run", () => {
  const { run, history } = docsExample()
  const printed = formatEvalTable(run, compareWithPrevious(run.results, history), { color: false, width: 100 })
  const shown = blocks("").find((block) => block.startsWith("tool-tester eval:"))
  expect(shown?.trimEnd()).toBe(printed.trimEnd())
})

test("every JSON block of docs/evals.md parses", () => {
  const json = blocks("json")
  expect(json.length).toBeGreaterThan(2)
  for (const block of json) expect(() => JSON.parse(block), block).not.toThrow()
})

test("every block of cases docs/evals.md shows is valid as eval reads case files", () => {
  // A case file is a list of cases, or an object whose `cases` is one.
  const caseBlocks = blocks("json")
    .map((block) => JSON.parse(block) as { cases?: unknown } | unknown[])
    .map((value) => (Array.isArray(value) ? value : value.cases))
    .filter((cases): cases is unknown[] => Array.isArray(cases))
  expect(caseBlocks.length).toBeGreaterThan(1)
  for (const cases of caseBlocks) {
    for (const evalCase of cases) {
      const problems = validateCase(evalCase).problems.map(
        (problem) => `${formatKeyPath(problem.path)}: ${problem.message}`,
      )
      expect(problems, JSON.stringify(evalCase)).toEqual([])
    }
  }
})
