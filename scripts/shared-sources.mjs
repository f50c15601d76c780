// The modules create-tool and tool-tester share. Neither package may depend on the other, and each
// is published alone, so the one source is tool-tester's and create-tool's copy is written from it:
// by `pnpm install` (the root's postinstall) and by create-tool's build. The copies are not in git
// (.gitignore), so each rule exists once: quoting a pasted command for the user's shell, "did you
// mean", when to colour, optional fields, asking for a file's stats, and making folders. `node scripts/shared-sources.mjs --check` exits 1 when a copy is stale.
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

/** tool-tester's file -> create-tool's copy, relative to the repository. */
const SHARED_SOURCES = [
  ["packages/tool-tester/src/_shell-quote.ts", "packages/create-tool/src/_shell-quote.ts"],
  ["packages/tool-tester/src/did-you-mean.ts", "packages/create-tool/src/did-you-mean.ts"],
  ["packages/tool-tester/src/cli/_color.ts", "packages/create-tool/src/_color.ts"],
  ["packages/tool-tester/src/_defined-fields.ts", "packages/create-tool/src/_defined-fields.ts"],
  ["packages/tool-tester/src/_file-stats.ts", "packages/create-tool/src/_file-stats.ts"],
  ["packages/tool-tester/src/_make-folders.ts", "packages/create-tool/src/_make-folders.ts"],
]

/** The copy's text: the source's, under one line that says where to edit it. */
function copyText(source) {
  const text = readFileSync(path.join(root, source), "utf8")
  return `// Written from ${source} by scripts/shared-sources.mjs (pnpm install, the build): edit that file.\n${text}`
}

const check = process.argv.includes("--check")
let stale = 0
for (const [source, copy] of SHARED_SOURCES) {
  const target = path.join(root, copy)
  const text = copyText(source)
  if (existsSync(target) && readFileSync(target, "utf8") === text) continue
  if (check) {
    stale++
    console.error(`${copy} is not the copy of ${source}: run node scripts/shared-sources.mjs`)
  } else writeFileSync(target, text)
}
process.exitCode = stale === 0 ? 0 : 1
