// The command a create-tool error names, pasted, with each package manager: started by `npm create
// tool` (or pnpm's, yarn's, bun's) there is no `create-tool` on PATH, so a refusal names the help as
// this manager runs it (`pnpm create tool -- --help`). The packed create-tool is served from a local
// registry, so each manager fetches it by name, as from the npm registry once it is published.
import { mkdirSync } from "node:fs"
import path from "node:path"
import { afterAll, beforeAll, describe, inject, test } from "vitest"
import { type LocalRegistry, startLocalRegistry } from "./_local-registry.ts"
import { opencodeBinary } from "./_opencode-bun.ts"
import { cleanEnv, describeRun, run, useTmpDir } from "./_run.ts"

// Fetching create-tool and its two dependencies through a manager on a loaded 2-core machine.
const commandTimeout = 300_000

type Manager = {
  /** The word a printed command starts with. */
  name: string
  /** How this test runs that word (a pinned version through npx, or opencode's Bun). */
  words: readonly string[]
  env?: Record<string, string>
}

const managers: Manager[] = [
  { name: "npm", words: ["npm"] },
  // The pnpm and yarn of install-matrix.test.ts: the ones a newcomer installs today.
  { name: "pnpm", words: ["npx", "-y", "pnpm@12.23.0"] },
  { name: "yarn", words: ["npx", "-y", "yarn@1.22.22"] },
  { name: "bun", words: [opencodeBinary()], env: { BUN_BE_BUN: "1" } },
]

let registry: LocalRegistry
beforeAll(async () => {
  registry = await startLocalRegistry(inject("tarballs"))
})
afterAll(async () => {
  await registry.close()
})

describe.concurrent("a create-tool refusal names its help as the manager that started it runs it", () => {
  for (const manager of managers) {
    test(manager.name, { timeout: 2 * commandTimeout }, async ({ expect, onTestFinished }) => {
      const cwd = useTmpDir("create-hints-", onTestFinished)
      const home = useTmpDir("create-hints-home-", onTestFinished)
      const tmp = path.join(home, "tmp")
      mkdirSync(tmp)
      const env = cleanEnv({
        // npm's and yarn 1's setting, Bun's, and pnpm's (11 and later read no npm_config_*).
        npm_config_registry: registry.url,
        NPM_CONFIG_REGISTRY: registry.url,
        pnpm_config_registry: registry.url,
        npm_config_cache: path.join(home, "npm-cache"),
        npm_config_yes: "true",
        XDG_CONFIG_HOME: path.join(home, ".config"),
        XDG_CACHE_HOME: path.join(home, ".cache"),
        BUN_INSTALL_CACHE_DIR: path.join(home, "bun-cache"),
        // bunx keeps what it installed in TMPDIR by name (bunx-UID-create-tool@latest): a folder of
        // the test's own, so an earlier run's create-tool is never the one run.
        TMPDIR: tmp,
        YARN_GLOBAL_FOLDER: path.join(home, "yarn-global"),
        YARN_PREFIX: path.join(home, "yarn-prefix"),
        YARN_CACHE_FOLDER: path.join(home, "yarn-cache"),
        ...manager.env,
      })
      const [command, ...words] = manager.words as [string, ...string[]]

      // A typo: refused with the option meant, and the help as this manager runs it.
      const refused = await run(command, [...words, "create", "tool", "--", "--forse"], {
        cwd,
        timeout: commandTimeout,
        env,
      })
      expect(refused.status, describeRun(refused)).toBe(1)
      const help = /See (.+)\. \[USAGE\]$/m.exec(refused.stderr)?.[1]
      expect(help, describeRun(refused)).toBe(`${manager.name} create tool -- --help`)

      // Pasted, with this manager: create-tool's help, and nothing written.
      const [first, ...rest] = help!.split(" ")
      expect(first).toBe(manager.name)
      const shown = await run(command, [...words, ...rest], { cwd, timeout: commandTimeout, env })
      expect(shown.status, describeRun(shown)).toBe(0)
      expect(shown.stdout, describeRun(shown)).toMatch(/create-tool/)
      expect(shown.stdout, describeRun(shown)).toMatch(/--template/)
    })
  }
})
