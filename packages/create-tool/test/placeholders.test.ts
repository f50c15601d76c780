import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import type { Language, ToolLocation } from "../src/options.ts"
import { scaffold } from "../src/scaffold.ts"
import { listTemplates } from "../src/templates.ts"
import { templatesDirectory, useTmpDir } from "./helpers.ts"

// No variant may leave a template placeholder, a directive line, or a placeholder that a Markdown
// formatter turned into bold text (`__NAME__` -> `**NAME**`) in any file it writes.

const templates = (await listTemplates(templatesDirectory)).map((template) => template.name)
const locations: ToolLocation[] = ["project", "global", "plugin"]
const languages: Language[] = ["ts", "js"]
const variants = templates.flatMap((template) =>
  locations.flatMap((location) =>
    languages.flatMap((language) =>
      [false, true].flatMap((exports) =>
        [true, false].map((withTest) => ({ template, location, language, exports, withTest })),
      ),
    ),
  ),
)

/** Every placeholder name the templates use (`TOOL_NAME` of `__TOOL_NAME__`). */
const placeholderNames = new Set(
  readdirSync(templatesDirectory, { recursive: true, encoding: "utf8" })
    // templates/README.md explains the placeholders; it is not a template file.
    .filter((path) => path !== "README.md" && statSync(join(templatesDirectory, path)).isFile())
    .flatMap((path) => [...readFileSync(join(templatesDirectory, path), "utf8").matchAll(/__([A-Z][A-Z0-9_]*)__/g)])
    .map((match) => match[1]!),
)

const leftovers = [
  /__[A-Z][A-Z0-9_]*__/,
  new RegExp(`\\*\\*(?:${[...placeholderNames].join("|")})\\*\\*`),
  /^\s*(?:\/\/|#|<!--)\s*@(?:if|end|tool-begin|tool-end)\b/m,
]

test("the placeholders are found in the templates", () => {
  expect([...placeholderNames]).toEqual(expect.arrayContaining(["PACKAGE_NAME", "DESCRIPTION", "TOOL_ID"]))
})

test.each(variants)(
  "$template, $location, $language, named exports: $exports, test: $withTest: no placeholder survives",
  async ({ template, location, language, exports, withTest }) => {
    const cwd = useTmpDir()
    const name = location === "plugin" ? "@me/opencode-sample" : "sample"
    const result = await scaffold({
      name,
      location,
      directory: cwd,
      globalDirectory: join(cwd, "config/opencode"),
      template,
      language,
      test: withTest,
      templatesDirectory,
      ...(exports ? { exports: ["first", "second"] } : {}),
    })
    expect(result.files.length).toBeGreaterThan(0)
    for (const file of result.files) {
      const content = readFileSync(file.path, "utf8")
      for (const pattern of leftovers) expect(content, file.path).not.toMatch(pattern)
    }
    if (location === "plugin") {
      const readme = readFileSync(join(result.root, "README.md"), "utf8")
      expect(readme.split("\n")[0]).toBe("# @me/opencode-sample")
      expect(readme).toContain('"plugin": ["@me/opencode-sample"]')
      expect(readme).toContain('"plugin": ["/absolute/path/to/opencode-sample"]')
      expect(readme).toContain(exports ? "- `sample_first`\n- `sample_second`" : "- `sample`\n")
      expect(readme.includes("npm test")).toBe(withTest)
      expect(readme.includes("Node.js ^20.19.0 || >=22.12.0")).toBe(withTest)
    }
  },
)
