// Every ```sh block of README.md and docs/*.md, run as a newcomer would: in a fresh opencode
// project, block after block as the page goes, with this repository's packages served as if they
// were published. Blocks that cannot run here carry a marker (_command-blocks.ts, CONTRIBUTING.md).
// The pages do not depend on each other (each its own project, home and npm cache): they run at
// once, mostly waiting on npm and the registry, so the file takes about its longest page rather
// than the sum of them (759 s one after another beside a loaded CI).
import { mkdirSync, readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { afterAll, beforeAll, describe, type ExpectStatic, expect, inject, test } from "vitest"
import { type CommandBlock, commandBlocks, strayMarkers } from "./_command-blocks.ts"
import { type LocalRegistry, startLocalRegistry } from "./_local-registry.ts"
import { root } from "./_packages.ts"
import { cleanEnv, describeRun, run, useTmpDir } from "./_run.ts"

const pages = ["README.md", ...readdirSync(path.join(root, "docs")).map((file) => `docs/${file}`)]
  .filter((page) => page.endsWith(".md"))
  .map((page) => ({ page, markdown: readFileSync(path.join(root, page), "utf8") }))
const pagesWithBlocks = pages.filter(({ markdown }) => commandBlocks(markdown).length > 0)

// Each block installs from the registry or builds: minutes on a loaded 2-core machine.
const blockTimeout = 600_000

// One registry for every page; it fetches what it passes on from the npm registry once.
let registry: LocalRegistry
beforeAll(async () => {
  registry = await startLocalRegistry(inject("tarballs"))
})
afterAll(async () => {
  await registry.close()
})

test("every marker stands right before a sh block", () => {
  expect(pages.flatMap(({ page, markdown }) => strayMarkers(markdown).map((line) => `${page}:${line}`))).toEqual([])
})

test("only the repository's own suite and npm login/publish are skipped, each saying why", () => {
  const skipped = pagesWithBlocks.flatMap(({ page, markdown }) =>
    commandBlocks(markdown)
      .filter((block) => block.skip !== undefined)
      .map((block) => ({ page, why: (block.skip ?? "").length > 10 })),
  )
  // A new skip is a command a newcomer cannot run as written: add it here only on purpose.
  expect(skipped).toEqual([
    { page: "README.md", why: true },
    // Real providers: an API key and the network, which the suite has neither of.
    { page: "docs/evals.md", why: true },
    { page: "docs/evals.md", why: true },
    { page: "docs/publishing-a-plugin.md", why: true },
  ])
})

describe.concurrent("the command blocks run as written", () => {
  for (const { page, markdown } of pagesWithBlocks) {
    const blocks = commandBlocks(markdown).filter((block) => block.skip === undefined)
    if (blocks.length === 0) continue
    test(
      `${page}, in a fresh opencode project`,
      async ({ expect, onTestFinished }) => {
        const project = useTmpDir("docs-project-", onTestFinished)
        const home = useTmpDir("docs-home-", onTestFinished)
        // npx keeps what it installed by name and version: with the user's cache, `npx create-tool`
        // would run the create-tool of an earlier run. A cache of the page's own, so that pages
        // running at once never write one npx folder together.
        const npmCache = useTmpDir("docs-npm-cache-", onTestFinished)
        mkdirSync(path.join(project, ".opencode"))
        // npm_config_yes: the "Ok to proceed? (y)" that npx and npm create ask before installing a
        // package, answered as the reader does.
        const env = cleanEnv({
          npm_config_registry: registry.url,
          npm_config_cache: npmCache,
          npm_config_yes: "true",
          XDG_CONFIG_HOME: path.join(home, ".config"),
        })
        for (const block of blocks) await runBlock(block, { page, project, env, expect })
      },
      blockTimeout * blocks.length,
    )
  }
})

// --- internal ---

async function runBlock(
  block: CommandBlock,
  context: { page: string; project: string; env: Record<string, string | undefined>; expect: ExpectStatic },
): Promise<void> {
  const { expect } = context
  // -e: each line must succeed, as a reader would stop at the first failure; -x: say which line.
  const script = block.setup === undefined ? block.script : `${block.setup}\n${block.script}`
  const result = await run("bash", ["-e", "-x", "-c", script], {
    cwd: context.project,
    timeout: blockTimeout,
    env: context.env,
  })
  expect(result.status, `${context.page}:${block.line}\n${script}\n${describeRun(result)}`).toBe(0)
}
