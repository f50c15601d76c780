// Makes a tool or plugin file importable by Node as opencode's runtime (Bun) would load it, without
// module hooks (on Node 20 those run on a thread of their own, started synchronously, and every
// import then costs a round trip to it). TypeScript is compiled; in every project module the
// import specifiers are resolved here, as Bun resolves them, and written back as absolute URLs;
// `import.meta` and `import()` are routed to a helper that answers for the original file. The
// result goes to a module cache and Node imports that. Packages' JavaScript (imported by name, or
// found in node_modules), CommonJS files, JSON and built-ins are imported as they are.
// Hand-written on purpose (measured): tsx, the kept loader for TypeScript on Node, works through
// those module hooks; `node --import tsx` on a one-line .ts file took a median 2.19 s against
// 0.44 s for `node -e 0` (9 runs each on the 2-core CI machine, loaded), a cost every engine start
// would pay. The parts that are a library's job are libraries: esbuild compiles, es-module-lexer
// finds the imports (analyze-module.ts), import-meta-resolve resolves packages.
import { readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { realPathOrAsIs } from "../_real-path.ts"
import { fingerprint } from "./_fingerprint.ts"
import { sourceFileProblem } from "./_source-file.ts"
import type { ModuleAnalysis } from "./analyze-module.ts"
import { analyzeModule, TYPESCRIPT, writeAtomically } from "./analyze-module.ts"
import { moduleCacheDirectory } from "../runtime/cache-directory.ts"
import type { Preparer } from "./loader-registry.ts"
import { registerLoader } from "./loader-registry.ts"
import { isPathLike, resolveSpecifier } from "./resolve-specifier.ts"
import { IMPORT_META_HELPER } from "../runtime/runtime-files.ts"

export type { Preparer } from "./loader-registry.ts"

const JAVASCRIPT = /\.(js|mjs)$/
const META = "__opencodeToolTesterMeta"
const IMPORT = "__opencodeToolTesterImport"

const preparers = new Map<number, Preparer>()
/** The files each pass prepared or began to (one that failed to compile included), by pass. */
const reached = new Map<number, Set<string>>()

registerLoader({ resolveSpecifier, preparerFor })

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

/**
 * The files a pass's modules read, by their real paths: every module it prepared or began to
 * (one whose syntax is wrong too), and the files imported as they are.
 */
export function preparedFiles(generation: number): string[] {
  return [...(reached.get(generation) ?? [])]
}

// --- internal ---

type Plan = { kind: "native"; url: string } | { kind: "prepared"; url: string; file: string; analysis: ModuleAnalysis }

function createPreparer(generation: number): Preparer {
  const known = new Map<string, { url: string; ready: Promise<unknown> }>()
  const files = new Set<string>()
  reached.set(generation, files)

  /** `stack`: the files being prepared above this one; an import cycle returns the URL at once. */
  const prepare = async (file: string, stack: ReadonlySet<string>): Promise<string> => {
    const seen = known.get(file)
    if (seen) {
      if (!stack.has(file)) await seen.ready
      return seen.url
    }
    files.add(file)
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
  // By its real path, as Node names a module (and as resolution names the files it imports), so a
  // file reached through a symbolic link is one module, not two.
  return (file) => prepare(realPathOrAsIs(path.resolve(file)), new Set())
}

async function planModule(file: string, generation: number): Promise<Plan> {
  // Imported natively or read here, a file is read whole: a device, a FIFO or a huge file is refused first.
  const problem = sourceFileProblem(file)
  if (problem !== undefined) throw new Error(`${file} ${problem}`)
  const native = { kind: "native", url: pathToFileURL(file).href } as const
  if (!TYPESCRIPT.test(file) && (!JAVASCRIPT.test(file) || isInNodeModules(file))) return native
  const source = readFileSync(file, "utf8")
  const analysis = await analyzeModule(file, source)
  // JavaScript that is not an ES module (CommonJS, a plain script) is imported as it is.
  if (!TYPESCRIPT.test(file) && !analysis.esModule) return native
  return { kind: "prepared", url: cacheURL(file, source, generation), file, analysis }
}

async function writeModule(
  plan: Extract<Plan, { kind: "prepared" }>,
  generation: number,
  prepareDependency: (file: string) => Promise<string>,
): Promise<void> {
  const { code, imports } = plan.analysis
  const original = pathToFileURL(plan.file).href
  const edits: Array<{ start: number; end: number; text: string }> = []
  for (const site of imports) {
    if (site.kind === "meta") edits.push({ ...site, text: `${META}(${JSON.stringify(original)})` })
    else if (site.kind === "dynamic") {
      edits.push({ ...site, text: `${IMPORT}(${JSON.stringify(original)}, ${generation}, ` })
    } else {
      const target = resolveSpecifier(site.specifier, original)
      // A package's JavaScript is used as it is, even when the package is linked from elsewhere.
      const packaged = !isPathLike(site.specifier) && !TYPESCRIPT.test(new URL(target).pathname)
      const url = target.startsWith("file:") && !packaged ? await prepareDependency(fileURLToPath(target)) : target
      // The quotes are replaced too: the URL is written as a JSON string.
      edits.push({ start: site.start - 1, end: site.end + 1, text: JSON.stringify(url) })
    }
  }
  let output = code
  for (const edit of edits.sort((left, right) => right.start - left.start)) {
    output = output.slice(0, edit.start) + edit.text + output.slice(edit.end)
  }
  if (imports.some((site) => site.kind !== "static")) output = withHelperImport(output)
  const file = fileURLToPath(plan.url)
  let current: string | undefined
  try {
    current = readFileSync(file, "utf8")
  } catch {}
  if (current === output) return
  try {
    writeAtomically(file, output)
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error)
    throw new Error(
      `cannot write its prepared copy to ${path.dirname(path.dirname(file))} (${reason}): make the temporary folder writable, or point TMPDIR to one that is`,
    )
  }
}

/** The helper import goes on the first line (after a hashbang), so line numbers stay the same. */
function withHelperImport(code: string): string {
  const helper = JSON.stringify(IMPORT_META_HELPER)
  const declaration = `import { moduleMeta as ${META}, dynamicImport as ${IMPORT} } from ${helper};`
  if (!code.startsWith("#!")) return declaration + code
  const lineEnd = code.indexOf("\n")
  if (lineEnd === -1) return `${code}\n${declaration}`
  return code.slice(0, lineEnd + 1) + declaration + code.slice(lineEnd + 1)
}

/** Named by the original path, its content and the pass: readable in stack traces, never shared by two files. */
function cacheURL(file: string, source: string, generation: number): string {
  const name = `${path.basename(file)}.${fingerprint(source).slice(0, 12)}.g${generation}.mjs`
  return pathToFileURL(path.join(moduleCacheDirectory("modules"), fingerprint(file), name)).href
}

function isInNodeModules(file: string): boolean {
  return file.split(path.sep).includes("node_modules")
}
