// The folder-level import graph of src/, in Markdown: which folder imports which (with the number of
// imports, type imports included), the pairs that import each other both ways, and the groups of
// folders tied in a loop. A file at src/'s top is a node of its own (load-tools.ts is a layer, not a
// folder). Read from dependency-cruiser's JSON with the package's rules file, so it sees what
// `pnpm check:deps` sees. Run from the package: `node scripts/folder-graph.mjs > graph.md`.
import { execFileSync } from "node:child_process"
import path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
// The package exports only its API (src/main/index.mjs); its bin is two folders up from it.
const cruiser = fileURLToPath(new URL("../../bin/dependency-cruise.mjs", import.meta.resolve("dependency-cruiser")))
const json = execFileSync(
  process.execPath,
  [cruiser, "--config", ".dependency-cruiser.cjs", "--output-type", "json", "src"],
  { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
)
const { modules } = JSON.parse(json)

/** `src/engine/serve.ts` -> `engine/`; `src/load-tools.ts` -> `load-tools.ts`. */
const nodeOf = (file) => {
  const parts = file.replace(/^src\//, "").split("/")
  return parts.length === 1 ? parts[0] : `${parts[0]}/`
}

/** from -> (to -> count) */
const edges = new Map()
for (const module of modules) {
  if (!module.source.startsWith("src/")) continue
  const from = nodeOf(module.source)
  if (!edges.has(from)) edges.set(from, new Map())
  for (const dependency of module.dependencies) {
    if (!dependency.resolved.startsWith("src/")) continue
    const to = nodeOf(dependency.resolved)
    if (to === from) continue
    const targets = edges.get(from)
    targets.set(to, (targets.get(to) ?? 0) + 1)
  }
}
const nodes = [...edges.keys()].sort((a, b) => {
  const folder = (name) => (name.endsWith("/") ? 0 : 1)
  return folder(a) - folder(b) || a.localeCompare(b)
})
const count = (from, to) => edges.get(from)?.get(to) ?? 0

const lines = ["| from | imports (imports of each) | imported by |", "| --- | --- | --- |"]
for (const node of nodes) {
  const targets = [...edges.get(node)].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  const users = nodes.filter((other) => count(other, node) > 0)
  const out = targets.map(([to, n]) => `${to} ${n}`).join(", ") || "-"
  lines.push(`| ${node} | ${out} | ${users.length} |`)
}

const both = []
for (const a of nodes) {
  for (const b of nodes)
    if (a < b && count(a, b) > 0 && count(b, a) > 0) both.push(`${a} ⇄ ${b} (${count(a, b)} / ${count(b, a)})`)
}

// Tarjan's strongly connected components: the folders tied in one loop.
const index = new Map()
const low = new Map()
const stack = []
const groups = []
let next = 0
const visit = (node) => {
  index.set(node, next)
  low.set(node, next++)
  stack.push(node)
  for (const to of edges.get(node)?.keys() ?? []) {
    if (!index.has(to)) {
      visit(to)
      low.set(node, Math.min(low.get(node), low.get(to)))
    } else if (stack.includes(to)) low.set(node, Math.min(low.get(node), index.get(to)))
  }
  if (low.get(node) === index.get(node)) {
    const group = []
    let member
    do {
      member = stack.pop()
      group.push(member)
    } while (member !== node)
    if (group.length > 1) groups.push(group.sort())
  }
}
for (const node of nodes) if (!index.has(node)) visit(node)

const total = [...edges.values()].reduce((sum, targets) => sum + [...targets.values()].reduce((s, n) => s + n, 0), 0)
const list = (items) => (items.length === 0 ? "none" : items.map((item) => `- ${item}`).join("\n"))
console.log(`Folder graph of packages/tool-tester/src (${modules.length} modules, ${total} imports across folders)

${lines.join("\n")}

Both ways (${both.length}):
${list(both)}

Tied in a loop (${groups.length}):
${list(groups.map((group) => group.join(", ")))}`)
