// TypeScript to JavaScript with esbuild (opencode's Bun strips types the same way: no type check),
// cached on disk by file and content, so an unchanged file is not compiled twice.
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"

export const TYPESCRIPT = /\.(ts|tsx|mts)$/

const CACHE_DIRECTORY = path.join(os.tmpdir(), "opencode-tool-tester", "compiled")
/** The oldest Node this package supports: an older target would drop import attributes (`with { type: "json" }`). */
const TARGET = "node20.19"

/** The ES module esbuild makes of a TypeScript file; throws esbuild's error on a syntax error. */
export async function compileTypeScript(file: string, source: string): Promise<string> {
  const key = createHash("sha256").update(`${TARGET}\0${file}\0`).update(source).digest("hex").slice(0, 32)
  const cached = path.join(CACHE_DIRECTORY, `${key}.js`)
  try {
    return readFileSync(cached, "utf8")
  } catch {}
  const { transform } = await import("esbuild")
  const output = await transform(source, {
    loader: file.endsWith(".tsx") ? "tsx" : "ts",
    format: "esm",
    target: TARGET,
    sourcefile: file,
  })
  try {
    writeAtomically(cached, output.code)
  } catch {}
  return output.code
}

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
export function writeAtomically(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
  writeFileSync(temporary, text)
  renameSync(temporary, file)
}
