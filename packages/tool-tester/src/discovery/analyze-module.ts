// What preparing a module needs to know about a file: its JavaScript (TypeScript compiled by
// esbuild, which strips types as Bun does, without a type check), whether it is an ES module, and
// where its imports, `import.meta`s and `import()`s are (found by es-module-lexer). Cached on disk
// by file and content, so an unchanged file costs one small read: neither esbuild nor the lexer
// (whose WebAssembly start-up alone costs more than the rest of a warm load) is loaded then.
// Entries hold the file's path and text, and are used only when both match.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import path from "node:path"
import { fingerprint } from "./_fingerprint.ts"
import { moduleCacheDirectory } from "../runtime/cache-directory.ts"

export const TYPESCRIPT = /\.(ts|tsx|mts)$/

type ImportSite =
  /** A static import or re-export: the specifier's text is from start to end, inside quotes. */
  | { kind: "static"; specifier: string; start: number; end: number }
  /** `import(`: from the keyword's start to just after the parenthesis. */
  | { kind: "dynamic"; start: number; end: number }
  /** `import.meta`. */
  | { kind: "meta"; start: number; end: number }

export type ModuleAnalysis = { code: string; esModule: boolean; imports: ImportSite[] }

type StoredAnalysis = Omit<ModuleAnalysis, "code"> & { file: string; source: string; code: string | undefined }

/** The oldest Node this package supports: an older target would drop import attributes (`with { type: "json" }`). */
const TARGET = "node20.19"
/** Bumped when the analysis changes shape, so old cache entries are not read. */
const FORMAT = 2

/** Compiles (TypeScript) and lexes a file; throws esbuild's error on a TypeScript syntax error. */
export async function analyzeModule(file: string, source: string): Promise<ModuleAnalysis> {
  const typescript = TYPESCRIPT.test(file)
  const name = fingerprint(`${FORMAT}\0${TARGET}\0${file}`) + fingerprint(source)
  let cached: string | undefined
  try {
    cached = path.join(moduleCacheDirectory("analyzed"), `${name}.json`)
    const stored = JSON.parse(readFileSync(cached, "utf8")) as StoredAnalysis
    // The name is only a fingerprint: what was stored must be for this very file and text.
    if (stored.file === file && stored.source === source) {
      return { code: stored.code ?? source, esModule: stored.esModule, imports: stored.imports }
    }
  } catch {}
  const code = typescript ? await compile(file, source) : source
  const lexed = await lex(code)
  // JavaScript the lexer cannot read is left to Node, which reports the syntax error in its words.
  if (!lexed && typescript) throw new Error(`${file}: esbuild's output could not be read`)
  const analysis: ModuleAnalysis = { code, esModule: lexed?.esModule ?? false, imports: lexed?.imports ?? [] }
  try {
    // JavaScript's code is its source: not stored twice.
    const stored: StoredAnalysis = { file, source, ...analysis, code: typescript ? analysis.code : undefined }
    // An unsafe cache folder (cache-directory.ts) is not used: the analysis is then made each time.
    if (cached !== undefined) writeAtomically(cached, JSON.stringify(stored))
  } catch {}
  return analysis
}

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
export function writeAtomically(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
  writeFileSync(temporary, text, { mode: 0o600 })
  renameSync(temporary, file)
}

// --- internal ---

async function compile(file: string, source: string): Promise<string> {
  const { transform } = await import("esbuild")
  const output = await transform(source, {
    loader: file.endsWith(".tsx") ? "tsx" : "ts",
    format: "esm",
    target: TARGET,
    sourcefile: file,
  })
  return output.code
}

let lexer: Promise<typeof import("es-module-lexer")> | undefined

async function lex(code: string): Promise<{ esModule: boolean; imports: ImportSite[] } | undefined> {
  lexer ??= import("es-module-lexer").then(async (module) => {
    await module.init()
    return module
  })
  const { parse } = await lexer
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(code)
  } catch {
    return undefined
  }
  const imports: ImportSite[] = []
  for (const entry of parsed[0]) {
    if (entry.type === "import-meta") imports.push({ kind: "meta", start: entry.start, end: entry.end })
    else if (entry.type === "dynamic") {
      imports.push({ kind: "dynamic", start: entry.importStart, end: entry.dynamicStart + 1 })
    } else if (typeof entry.specifier === "string") {
      imports.push({ kind: "static", specifier: entry.specifier, start: entry.start, end: entry.end })
    }
  }
  return { esModule: parsed[3], imports }
}
