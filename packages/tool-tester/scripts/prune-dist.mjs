// Removes the JavaScript files tsc wrote that nothing loads once the build is bundled: the public
// entries, the CLI and the engines are bundles (scripts/bundle.mjs), and the modules they were built
// from would only be packed and installed (~0.6 MB of every install, test/install/lean-install.test.ts).
// What stays is what a package entry point, bin.js or the `imports` map reaches, following every
// relative `.js`/`.cjs` path written in a kept file (imports, `new URL(...)`, require paths), plus
// the inspector's page assets. The .d.ts files stay: the entries' types are built from them.
// Run by `npm run build`, last.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const dist = path.join(root, "dist")
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"))
/** Files served as they are, never imported: kept whole. */
const kept = [path.join(dist, "inspector-ui") + path.sep]
const code = /\.(c|m)?js$/

/** Every string in a package.json field (exports and imports are nested objects of paths). */
const paths = (value) =>
  typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(paths) : []

const reached = new Set()
const queue = [
  path.join(root, typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin)[0]),
  ...[...paths(manifest.exports), ...paths(manifest.imports)]
    .filter((file) => code.test(file))
    .map((file) => path.join(root, file)),
]
const aliases = new Map(Object.entries(manifest.imports ?? {}).map(([alias, file]) => [alias, path.join(root, file)]))

while (queue.length > 0) {
  const file = queue.pop()
  if (reached.has(file) || !existsSync(file)) continue
  reached.add(file)
  const source = readFileSync(file, "utf8")
  for (const [, relative] of source.matchAll(/["'`](\.{1,2}\/[^"'`\s]+\.(?:c|m)?js)["'`]/g)) {
    queue.push(path.resolve(path.dirname(file), relative))
  }
  for (const [alias, target] of aliases) if (source.includes(`"${alias}"`)) queue.push(target)
}

let removed = 0
let bytes = 0
const visit = (folder) => {
  for (const entry of readdirSync(folder)) {
    const file = path.join(folder, entry)
    if (!existsSync(file)) continue // a map removed with its module
    if (statSync(file).isDirectory()) visit(file)
    else if (code.test(file) && !reached.has(file) && !kept.some((prefix) => file.startsWith(prefix))) {
      bytes += statSync(file).size
      rmSync(file)
      rmSync(`${file}.map`, { force: true })
      removed++
    }
  }
}
visit(dist)
console.log(`prune-dist: removed ${removed} unbundled modules (${Math.round(bytes / 1024)} KB) that nothing loads`)
