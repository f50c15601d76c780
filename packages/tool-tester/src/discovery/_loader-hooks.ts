// Node module hooks that load tool and plugin files the way opencode (Bun) does: TypeScript without a
// build step, always as ES modules (top-level await, import.meta), and extensionless relative
// imports (`./helper` -> `./helper.ts`). Registered once per process by `import-module.ts`; runs
// on Node's loader thread, so it imports nothing from this package.
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

type HookData = { cacheDirectory: string }
type ResolveContext = { parentURL?: string | undefined; conditions: string[] }
type LoadContext = { format?: string | null | undefined; conditions: string[] }
type NextResolve = (specifier: string, context?: ResolveContext) => Promise<{ url: string; format?: string | null }>
type NextLoad = (url: string, context?: LoadContext) => Promise<{ format: string; source?: string | Buffer | null }>

const TYPESCRIPT = /\.(ts|tsx|mts)$/
const GENERATION = "tt-generation"
let cacheDirectory = ""

export function initialize(data: HookData): void {
  cacheDirectory = data.cacheDirectory
}

export async function resolve(specifier: string, context: ResolveContext, next: NextResolve) {
  let resolved: { url: string; format?: string | null }
  try {
    resolved = await next(specifier, context)
  } catch (error) {
    const alternative = await resolveWithoutExtension(specifier, context, next)
    if (!alternative) throw error
    resolved = alternative
  }
  return { ...resolved, url: carryGeneration(resolved.url, context.parentURL), shortCircuit: true }
}

export async function load(url: string, context: LoadContext, next: NextLoad) {
  if (!url.startsWith("file:") || !TYPESCRIPT.test(new URL(url).pathname)) return next(url, context)
  const file = fileURLToPath(url)
  const source = readFileSync(file, "utf8")
  return { format: "module", source: await compile(file, source), shortCircuit: true }
}

// --- internal ---

/** Bun resolves `./x` to `./x.ts`, `./x.js` to `./x.ts`, and folders to their index: so do we. */
async function resolveWithoutExtension(specifier: string, context: ResolveContext, next: NextResolve) {
  if (!specifier.startsWith(".") && !specifier.startsWith("/") && !specifier.startsWith("file:")) return undefined
  const stem = specifier.replace(/\.js$/, "")
  const candidates = [".ts", ".tsx", ".js", "/index.ts", "/index.js"].map((suffix) => stem + suffix)
  for (const candidate of candidates) {
    try {
      return await next(candidate, context)
    } catch {}
  }
  return undefined
}

/**
 * Each discovery pass imports its entry files with `?tt-generation=N`; the project's own files that
 * they import inherit it, so a new pass sees edited helpers too. Packages stay shared.
 */
function carryGeneration(url: string, parentURL: string | undefined): string {
  if (!parentURL || !url.startsWith("file:") || url.includes("/node_modules/")) return url
  const generation = new URL(parentURL).searchParams.get(GENERATION)
  if (!generation) return url
  const child = new URL(url)
  if (child.searchParams.has(GENERATION)) return url
  child.searchParams.set(GENERATION, generation)
  return child.href
}

async function compile(file: string, source: string): Promise<string> {
  const key = createHash("sha256").update(file).update("\0").update(source).digest("hex").slice(0, 32)
  const cached = path.join(cacheDirectory, `${key}.mjs`)
  try {
    return readFileSync(cached, "utf8")
  } catch {}
  const { transform } = await import("esbuild")
  const output = await transform(source, {
    loader: file.endsWith(".tsx") ? "tsx" : "ts",
    format: "esm",
    target: "node20",
    sourcemap: "inline",
    sourcefile: file,
  })
  try {
    mkdirSync(cacheDirectory, { recursive: true })
    const temporary = `${cached}.${process.pid}.tmp`
    writeFileSync(temporary, output.code)
    renameSync(temporary, cached)
  } catch {}
  return output.code
}
