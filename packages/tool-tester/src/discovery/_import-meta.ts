// Imported by every prepared module that uses `import.meta` or `import()` (see prepare-module.ts):
// both answer for the original file, not for its copy in the module cache. `import.meta` also has
// Bun's names (dir, file, path, main, env, require), because opencode runs tools on Bun.
//
// It imports no part of the loader: it uses the loader that prepared the module, which registered
// itself (loader-registry.ts) before any prepared module could run. So a bundled CLI worker and
// the library share one loader, and nothing is loaded twice.
import { createRequire } from "node:module"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { registeredLoader } from "./loader-registry.ts"

const metas = new Map<string, Record<string, unknown>>()

/** `import.meta` of the file at `url`: one object per file, as in Node and Bun. */
export function moduleMeta(url: string): Record<string, unknown> {
  let meta = metas.get(url)
  if (meta) return meta
  const filename = fileURLToPath(url)
  const dirname = path.dirname(filename)
  let require: NodeJS.Require | undefined
  meta = {
    url,
    filename,
    dirname,
    resolve: (specifier: string) => registeredLoader().resolveSpecifier(String(specifier), url),
    dir: dirname,
    file: path.basename(filename),
    path: filename,
    main: false,
    env: process.env,
    get require() {
      require ??= createRequire(url)
      return require
    },
  }
  metas.set(url, meta)
  return meta
}

/**
 * `import(specifier, options)` written in the file at `url`, in its discovery pass. This module
 * is loaded by Node from a prepared module, never by a test runner, so its `import()` is Node's.
 */
export async function dynamicImport(
  url: string,
  generation: number,
  specifier: unknown,
  options?: ImportCallOptions,
): Promise<unknown> {
  const loader = registeredLoader()
  const target = loader.resolveSpecifier(String(specifier), url)
  const importable = target.startsWith("file:") ? await loader.preparerFor(generation)(fileURLToPath(target)) : target
  return options === undefined ? import(importable) : import(importable, options)
}
