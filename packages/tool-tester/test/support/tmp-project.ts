import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { onTestFinished } from "vitest"
import { loadTools } from "../../src/index.ts"
import type { ToolProject } from "../../src/types.ts"
import { opencode } from "../helpers.ts"

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..")

/**
 * A throw-away project folder inside the package (so tool files resolve `@opencode-ai/plugin` and
 * `zod` from its node_modules, as they would from `.opencode/node_modules` under opencode), with a
 * `.git` folder so it is its own worktree. Removed when the test finishes.
 */
export function tmpProject(files: Record<string, string>, options: { git?: boolean } = {}): string {
  const root = path.join(packageRoot, ".tmp")
  mkdirSync(root, { recursive: true })
  const directory = mkdtempSync(path.join(root, "project-"))
  onTestFinished(() => rmSync(directory, { recursive: true, force: true }))
  if (options.git ?? true) mkdirSync(path.join(directory, ".git"))
  writeFiles(directory, files)
  return directory
}

/** An empty HOME and XDG config folder, so the developer's own opencode config never leaks in. */
export function isolatedEnvironment(files: Record<string, string> = {}): { env: Record<string, string>; home: string } {
  const home = tmpProject(files, { git: false })
  return { env: { XDG_CONFIG_HOME: path.join(home, ".config") }, home }
}

export function writeFiles(directory: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(directory, name)
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, content)
  }
}

/** A tool file's source: a default export made with tool() whose execute returns `body`'s value. */
export function toolSource(description: string, body = `return ${JSON.stringify(description)}`, args = "{}"): string {
  return `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: ${JSON.stringify(description)},
  args: ${args},
  async execute(args, context) { ${body} },
})
`
}

/**
 * A tmpProject of `files` loaded with an isolated home under `engine`: the bun engine is the
 * repository's opencode (tests that take it skip without one: helpers.ts `opencode.reason`).
 */
export async function loadedUnder(
  engine: "node" | "bun",
  files: Record<string, string>,
): Promise<{ project: ToolProject; directory: string }> {
  const { env, home } = isolatedEnvironment()
  const directory = tmpProject(files)
  const project = await loadTools({
    directory,
    env,
    home,
    engine,
    ...(engine === "bun" ? { engineBinary: opencode.binary! } : {}),
  })
  return { project, directory }
}
