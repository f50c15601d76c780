import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import path from "node:path"
import { afterAll, beforeAll } from "vitest"
import { closeProject, loadTools } from "../../src/index.ts"
import type { EngineChoice } from "../../src/runtime/here.ts"
import type { ToolProject } from "../../src/types.ts"
import { fixture, packageRoot } from "../helpers.ts"

/**
 * The fixture project `name` (test/fixtures), loaded once before the tests of the file or describe
 * block it is called in, with an empty home of its own so that no config of this machine's user is
 * read; closed, and the home removed, after them. Read `.project` inside the tests.
 */
export function useLoadedFixture(name: string, engine: EngineChoice = "node"): { readonly project: ToolProject } {
  const loaded: { project?: ToolProject } = {}
  let home: string | undefined
  beforeAll(async () => {
    mkdirSync(path.join(packageRoot, ".tmp"), { recursive: true })
    home = mkdtempSync(path.join(packageRoot, ".tmp", "home-"))
    const env = { XDG_CONFIG_HOME: path.join(home, ".config") }
    loaded.project = await loadTools({ directory: fixture(name), env, home, engine })
  }, 120_000)
  afterAll(async () => {
    if (loaded.project !== undefined) await closeProject(loaded.project)
    if (home !== undefined) rmSync(home, { recursive: true, force: true })
  })
  return {
    get project(): ToolProject {
      if (loaded.project === undefined)
        throw new Error(`the fixture ${name} is not loaded: read .project inside a test`)
      return loaded.project
    },
  }
}
