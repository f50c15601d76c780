// A save that takes away the tool the page has open (its export renamed, its file renamed or
// removed): the page says so, and opens the tool likeliest to be the same one (of the same file,
// else the one the save added, else the first), not an empty "Select a tool.".
import { renameSync, rmSync } from "node:fs"
import path from "node:path"
import type { Page } from "playwright-core"
import { describe, expect, test } from "vitest"
import { noChromium, pageOnTool, useInspectorSession, writeTool } from "./_inspector.ts"

const named = (exported: string, description: string) => `import { tool } from "@opencode-ai/plugin"
export ${exported === "default" ? "default" : `const ${exported} =`} tool({ description: ${JSON.stringify(description)}, args: {}, async execute() { return "ok" } })
`

const notice = (page: Page) => page.locator('[data-testid="tool-gone"]')
const open = (page: Page) => page.locator('[data-testid="tool-name"]').textContent()

const skipped = noChromium === undefined ? "" : ` (skipped: ${noChromium})`
describe.skipIf(noChromium !== undefined)(`the open tool is gone after a save${skipped}`, { timeout: 240_000 }, () => {
  const session = useInspectorSession({
    ".opencode/tools/alpha.ts": named("default", "First"),
    ".opencode/tools/greet.ts": named("default", "Greets"),
    ".opencode/tools/zed.ts": named("default", "Last"),
  })

  test("the page says which tool went, and opens the likeliest same one", async () => {
    const page = await pageOnTool(session.browser, session.dev.url, "greet")
    expect(await open(page)).toBe("greet")
    const tools = path.join(session.project.directory, ".opencode", "tools")

    // The export renamed: the tool of the same file.
    writeTool(session.project.directory, ".opencode/tools/greet.ts", named("hello", "Greets"))
    await notice(page).waitFor({ timeout: 60_000 })
    expect(await notice(page).textContent()).toBe(
      "greet is no longer offered: it was renamed or removed since the last load. Showing greet_hello, a tool of the same file.",
    )
    expect(await open(page)).toBe("greet_hello")
    expect(await page.locator('[data-tool="greet_hello"]').getAttribute("aria-current")).toBe("true")

    // The file renamed: the tool the save added.
    renameSync(path.join(tools, "greet.ts"), path.join(tools, "welcome.ts"))
    await expect
      .poll(() => notice(page).textContent(), { timeout: 60_000 })
      .toContain("greet_hello is no longer offered")
    expect(await notice(page).textContent()).toContain("Showing welcome_hello, the tool this load added.")
    expect(await open(page)).toBe("welcome_hello")

    // The file removed: the first tool.
    rmSync(path.join(tools, "welcome.ts"))
    await expect
      .poll(() => notice(page).textContent(), { timeout: 60_000 })
      .toContain("welcome_hello is no longer offered")
    expect(await notice(page).textContent()).toContain("Showing alpha, the first tool.")
    expect(await open(page)).toBe("alpha")

    // Choosing a tool puts the notice away.
    await page.locator('[data-tool="zed"]').click()
    expect(await notice(page).count()).toBe(0)
    expect(await open(page)).toBe("zed")
    await page.close()
  })
})
