// Makes a tool or plugin file importable by Node as opencode's runtime (Bun) would load it, without
// module hooks (on Node 20 those run on a thread of their own, started synchronously, and every
// import then costs a round trip to it). TypeScript is compiled; in every project module the
// import specifiers are resolved here, as Bun resolves them, and written back as absolute URLs;
// `import.meta` and `import()` are routed to a helper that answers for the original file. The
// result goes to a module cache and Node imports that. Files in node_modules that are JavaScript,
// CommonJS files, JSON and built-ins are imported as they are.
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { init, parse } from "es-module-lexer"
import { compileTypeScript, TYPESCRIPT, writeAtomically } from "./compile-typescript.ts"
import { resolveSpecifier } from "./resolve-specifier.ts"

/** Prepares a file and the project files it imports; resolves to the URL to import. */
export type Preparer = (file: string) => Promise<string>

const MODULE_DIRECTORY = path.join(os.tmpdir(), "opencode-tool-tester", "modules")
const JAVASCRIPT = /\.(js|mjs)$/
const META = "__opencodeToolTesterMeta"
const IMPORT = "__opencodeToolTesterImport"

const preparers = new Map<number, Preparer>()

/**
 * The preparer of one discovery pass. A pass's modules are fresh instances: their cache files are
 * named by pass, so a second pass sees edited files (and edited helpers) even in the same process.
 */
export function preparerFor(generation: number): Preparer {
  let preparer = preparers.get(generation)
  if (!preparer) {
    preparer = createPreparer(generation)
    preparers.set(generation, preparer)
  }
  return preparer
}

// --- internal ---

type Plan =
  | { kind: "native"; url: string }
  | { kind: "prepared"; url: string; file: string; source: string; typescript: boolean }

type Lexed = ReturnType<typeof parse>

function createPreparer(generation: number): Preparer {
  const known = new Map<string, { url: string; ready: Promise<unknown> }>()

  /** `stack`: the files being prepared above this one; an import cycle returns the URL at once. */
  const prepare = async (file: string, stack: ReadonlySet<string>): Promise<string> => {
    const seen = known.get(file)
    if (seen) {
      if (!stack.has(file)) await seen.ready
      return seen.url
    }
    const plan = await planModule(file, generation)
    if (plan.kind === "native") {
      known.set(file, { url: plan.url, ready: Promise.resolve() })
      return plan.url
    }
    const ready = writeModule(plan, generation, (dependency) => prepare(dependency, new Set(stack).add(file)))
    // Awaited below; this keeps a failure that only a later importer awaits from being "unhandled".
    ready.catch(() => {})
    known.set(file, { url: plan.url, ready })
    await ready
    return plan.url
  }
  return (file) => prepare(path.resolve(file), new Set())
}

async function planModule(file: string, generation: number): Promise<Plan> {
  const native = { kind: "native", url: pathToFileURL(file).href } as const
  const typescript = TYPESCRIPT.test(file)
  if (!typescript && (!JAVASCRIPT.test(file) || isInNodeModules(file))) return native
  const source = readFileSync(file, "utf8")
  // JavaScript that is not an ES module (CommonJS, a plain script), or that the lexer cannot read
  // (Node then reports the syntax error in its own words), is imported as it is.
  if (!typescript) {
    const lexed = await lex(source)
    if (!lexed?.[3]) return native
  }
  return { kind: "prepared", url: cacheURL(file, source, generation), file, source, typescript }
}

async function writeModule(
  plan: Extract<Plan, { kind: "prepared" }>,
  generation: number,
  prepareDependency: (file: string) => Promise<string>,
): Promise<void> {
  const code = plan.typescript ? await compileTypeScript(plan.file, plan.source) : plan.source
  const lexed = await lex(code)
  if (!lexed) throw new Error(`${plan.file}: the compiled module could not be read`)
  const original = pathToFileURL(plan.file).href
  const edits: Array<{ start: number; end: number; text: string }> = []
  let usesHelper = false
  for (const entry of lexed[0]) {
    if (entry.type === "import-meta") {
      usesHelper = true
      edits.push({ start: entry.start, end: entry.end, text: `${META}(${JSON.stringify(original)})` })
    } else if (entry.type === "dynamic") {
      usesHelper = true
      edits.push({
        start: entry.importStart,
        end: entry.dynamicStart + 1,
        text: `${IMPORT}(${JSON.stringify(original)}, ${generation}, `,
      })
    } else if (typeof entry.specifier === "string") {
      const target = resolveSpecifier(entry.specifier, original)
      const url = target.startsWith("file:") ? await prepareDependency(fileURLToPath(target)) : target
      // The quotes are replaced too: the URL is written as a JSON string.
      edits.push({ start: entry.start - 1, end: entry.end + 1, text: JSON.stringify(url) })
    }
  }
  let output = code
  for (const edit of edits.sort((left, right) => right.start - left.start)) {
    output = output.slice(0, edit.start) + edit.text + output.slice(edit.end)
  }
  if (usesHelper) output = withHelperImport(output)
  const file = fileURLToPath(plan.url)
  let current: string | undefined
  try {
    current = readFileSync(file, "utf8")
  } catch {}
  if (current !== output) writeAtomically(file, output)
}

let lexerReady: Promise<void> | undefined

async function lex(code: string): Promise<Lexed | undefined> {
  lexerReady ??= init()
  await lexerReady
  try {
    return parse(code)
  } catch {
    return undefined
  }
}

/** The helper import goes on the first line (after a hashbang), so line numbers stay the same. */
function withHelperImport(code: string): string {
  const helper = JSON.stringify(helperURL())
  const declaration = `import { moduleMeta as ${META}, dynamicImport as ${IMPORT} } from ${helper};`
  if (!code.startsWith("#!")) return declaration + code
  const lineEnd = code.indexOf("\n")
  if (lineEnd === -1) return `${code}\n${declaration}`
  return code.slice(0, lineEnd + 1) + declaration + code.slice(lineEnd + 1)
}

/** From source (this package's tests), the helper comes from the build, like the other runtime files. */
function helperURL(): string {
  return import.meta.url.endsWith(".ts")
    ? new URL("../../dist/discovery/_import-meta.js", import.meta.url).href
    : new URL("./_import-meta.js", import.meta.url).href
}

/** Named by the original path, its content and the pass: readable in stack traces, never shared by two files. */
function cacheURL(file: string, source: string, generation: number): string {
  const folder = createHash("sha256").update(file).digest("hex").slice(0, 16)
  const content = createHash("sha256").update(source).digest("hex").slice(0, 12)
  const name = `${path.basename(file)}.${content}.g${generation}.mjs`
  return pathToFileURL(path.join(MODULE_DIRECTORY, folder, name)).href
}

function isInNodeModules(file: string): boolean {
  return file.split(path.sep).includes("node_modules")
}
