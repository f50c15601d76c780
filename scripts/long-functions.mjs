// Lists every function, method, accessor and arrow over 100 lines in packages/*/src, longest first,
// as `file:line  length  name`: the list issue 36's closing note justifies one by one. Lines are
// counted from the function's first token (its doc comment left out) to its closing brace; a
// function inside another is listed on its own too.
// Usage: node scripts/long-functions.mjs [--max N]   (default 100; exits 0, it reports only)
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import ts from "typescript"

const { values } = parseArgs({ options: { max: { type: "string", default: "100" } } })
const max = Number(values.max)
if (!Number.isInteger(max) || max < 1) {
  console.error(`long-functions: --max ${values.max} is not a positive whole number`)
  process.exit(2)
}

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..")
const packagesFolder = path.join(root, "packages")
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/

const found = []
for (const entry of readdirSync(packagesFolder, { withFileTypes: true })) {
  if (!entry.isDirectory()) continue
  const src = path.join(packagesFolder, entry.name, "src")
  for (const file of sourceFiles(src)) found.push(...longFunctions(file))
}
found.sort((a, b) => b.lines - a.lines || a.where.localeCompare(b.where))
for (const { where, lines, name } of found) console.log(`${where}  ${lines}  ${name}`)
console.log(`${found.length} function(s) over ${max} lines`)

/** The source files under `folder`, in name order; none when it does not exist. */
function sourceFiles(folder) {
  let entries
  try {
    entries = readdirSync(folder, { withFileTypes: true })
  } catch {
    return []
  }
  const files = []
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(folder, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== "dist") files.push(...sourceFiles(full))
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      files.push(full)
    }
  }
  return files
}

function longFunctions(file) {
  const text = readFileSync(file, "utf8")
  const kind = /\.(tsx|jsx)$/.test(file) ? ts.ScriptKind.TSX : undefined
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind)
  const relativeFile = path.relative(root, file).split(path.sep).join("/")
  const long = []
  const visit = (node) => {
    if (isFunctionLike(node) && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line
      const lines = end - start + 1
      if (lines > max) long.push({ where: `${relativeFile}:${start + 1}`, lines, name: nameOf(node, source) })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return long
}

function isFunctionLike(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  )
}

/** The function's own name, else the name it is given (`const f = () =>`, `key: () =>`), else `(anonymous)`. */
function nameOf(node, source) {
  if (ts.isConstructorDeclaration(node)) return "constructor"
  if (node.name !== undefined) return node.name.getText(source)
  const parent = node.parent
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    parent.name !== undefined
  ) {
    return parent.name.getText(source)
  }
  if (ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText(source).slice(0, 40)})`
  return "(anonymous)"
}
