import { execFileSync } from "node:child_process"
import path from "node:path"
import { expect, test } from "vitest"
import { packageRoot } from "./helpers.ts"

const repository = path.resolve(packageRoot, "..", "..")

/** What git does with each file's line ends on checkout, by the repository's .gitattributes. */
function attributes(files: string[]): Record<string, string> {
  const output = execFileSync("git", ["check-attr", "text", "eol", "--", ...files], {
    cwd: repository,
    encoding: "utf8",
  })
  const found: Record<string, string> = {}
  for (const line of output.trim().split("\n")) {
    const [file, name, value] = line.split(": ")
    found[`${file} ${name}`] = value!
  }
  return found
}

test("a checkout on any OS keeps the bins, goldens and templates with LF line ends, and images as they are", () => {
  const texts = [
    "packages/tool-tester/bin.js",
    "packages/create-tool/bin.js",
    "packages/tool-tester/test/golden/ctx.json",
    "templates/default/tool.ts",
  ]
  const found = attributes([...texts, "docs/images/eval-report.png"])
  for (const file of texts) {
    // text=auto: converted only if text; eol=lf: LF in the working tree even where core.autocrlf is true (Windows).
    expect(found[`${file} text`], file).toBe("auto")
    expect(found[`${file} eol`], file).toBe("lf")
  }
  expect(found["docs/images/eval-report.png text"]).toBe("unset")
})
