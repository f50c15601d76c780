// Imported by every prepared module that uses `import.meta` or `import()` (see prepare-module.ts):
// both answer for the original file, not for its copy in the module cache. `import.meta` also has
// Bun's names (dir, file, path, main, env, require), because opencode runs tools on Bun.
import { createRequire } from "node:module"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { resolveSpecifier } from "./resolve-specifier.ts"
import { nativeImport } from "./runtime-files.ts"

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
    resolve: (specifier: string) => resolveSpecifier(String(specifier), url),
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

/** `import(specifier, options)` written in the file at `url`, in its discovery pass. */
export async function dynamicImport(
  url: string,
  generation: number,
  specifier: unknown,
  options?: ImportCallOptions,
): Promise<unknown> {
  const target = resolveSpecifier(String(specifier), url)
  // Loaded on the first import(): most tools never call it.
  const { preparerFor } = await import("./prepare-module.ts")
  const importable = target.startsWith("file:") ? await preparerFor(generation)(fileURLToPath(target)) : target
  return nativeImport(importable, options)
}
