// Under Bun, an import that fails in a module a tool reaches through others (tool.ts imports
// good.ts, which imports bad.ts with a syntax error) names the failing file only, and the modules
// between are in no module cache: nothing said that a save of good.ts (dropping the import of
// bad.ts) should reload. Their static imports are read here with Bun's own scanner and resolver.
// Only after a failed import: a load that succeeds lists its modules from require.cache.
import path from "node:path"
import { readSourceText } from "./_source-file.ts"

type BunScanning = {
  Transpiler: new (options: {
    loader: string
  }) => {
    scanImports(code: string): Array<{ path: string; kind: string }>
  }
  resolveSync(specifier: string, from: string): string
}

/** A tool reaches few of its own modules: the walk stops here whatever the project. */
const MAX_FILES = 500

const LOADERS: Record<string, string> = {
  ".ts": "ts",
  ".mts": "ts",
  ".cts": "ts",
  ".tsx": "tsx",
  ".js": "js",
  ".mjs": "js",
  ".cjs": "js",
  ".jsx": "jsx",
}

/**
 * The module files `file` imports statically, transitively, by absolute path (itself included),
 * none under node_modules; none outside Bun. A file that does not parse or an import that does not
 * resolve ends that branch: the import's own error names it.
 */
export function bunImportChain(file: string): string[] {
  const bun = (globalThis as { Bun?: BunScanning }).Bun
  if (bun === undefined) return []
  const found = new Set<string>()
  const queue = [path.resolve(file)]
  for (let next = queue.shift(); next !== undefined && found.size < MAX_FILES; next = queue.shift()) {
    if (found.has(next) || next.split(path.sep).includes("node_modules")) continue
    found.add(next)
    const loader = LOADERS[path.extname(next)]
    if (loader === undefined) continue
    try {
      const imports = new bun.Transpiler({ loader }).scanImports(readSourceText(next))
      for (const { path: specifier, kind } of imports) {
        if (kind !== "import-statement") continue
        try {
          const target = bun.resolveSync(specifier, path.dirname(next))
          if (path.isAbsolute(target)) queue.push(target)
        } catch {
          // Unresolved: the import's own error says so.
        }
      }
    } catch {
      // Unreadable or not parsed (the file that failed to compile, say): its imports are unknown.
    }
  }
  return [...found]
}
