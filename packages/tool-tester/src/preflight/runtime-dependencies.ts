// Every package the entry module imports at run time (following its relative imports through the
// tarball) must be one users get installed: in dependencies, peerDependencies or
// optionalDependencies. devDependencies are never installed for a package's users; a package that
// is not declared at all resolves only when something else happens to bring it along.
import { existsSync } from "node:fs"
import { builtinModules } from "node:module"
import path from "node:path"
import { analyzeModule } from "../discovery/analyze-module.ts"
import type { Finding } from "../doctor/finding.ts"
import type { InstalledPlugin } from "./install-tarball.ts"
import type { PackedPackage } from "./pack-package.ts"

export type RuntimeImport = { name: string; from: string }

/** The packages the entry imports at run time (type-only imports left out), with the first file that does. */
export async function runtimeImports(
  packed: PackedPackage,
  entry: string,
): Promise<{ imports: RuntimeImport[]; findings: Finding[] }> {
  const files = new Map(packed.files.map((file) => [file.path, file.content.toString("utf8")]))
  const imports = new Map<string, string>()
  const findings: Finding[] = []
  const seen = new Set<string>()
  const queue = [entry]
  while (queue.length > 0) {
    const file = queue.shift()!
    if (seen.has(file)) continue
    seen.add(file)
    const source = files.get(file)
    if (source === undefined || !/\.(m|c)?(j|t)sx?$/.test(file)) continue
    for (const specifier of await specifiers(path.join(packed.directory, file), source)) {
      if (specifier.startsWith(".") || specifier.startsWith("/")) {
        const target = resolveRelative(files, file, specifier)
        if (target) queue.push(target)
        else
          findings.push({
            code: "FILE_NOT_PACKED",
            severity: "error",
            file: path.join(packed.directory, file),
            message: `${file} imports ${specifier}, which is not in the tarball, so opencode cannot load the plugin: add it to "files" in package.json`,
            data: { importer: file, specifier },
          })
        continue
      }
      const name = packageName(specifier)
      if (name && !imports.has(name) && name !== packed.manifest["name"]) imports.set(name, file)
    }
  }
  return { imports: [...imports].map(([name, from]) => ({ name, from })), findings }
}

/**
 * DEV_DEPENDENCY_AT_RUNTIME for a runtime import found only in devDependencies; UNDECLARED_DEPENDENCY
 * for one declared nowhere (an error when the install cannot resolve it, else a warning).
 */
export function dependencyFindings(
  packed: PackedPackage,
  imports: readonly RuntimeImport[],
  installed: InstalledPlugin | undefined,
): Finding[] {
  const declared = (field: string) => Object.keys((packed.manifest[field] as Record<string, unknown>) ?? {})
  const runtime = new Set([
    ...declared("dependencies"),
    ...declared("peerDependencies"),
    ...declared("optionalDependencies"),
  ])
  const development = new Set(declared("devDependencies"))
  const manifestFile = path.join(packed.directory, "package.json")
  const findings: Finding[] = []
  for (const { name, from } of imports) {
    if (runtime.has(name)) continue
    if (development.has(name)) {
      findings.push({
        code: "DEV_DEPENDENCY_AT_RUNTIME",
        severity: "error",
        file: manifestFile,
        message: `${from} imports ${name}, which is only in devDependencies: npm does not install it for users, so opencode cannot load the plugin; move ${name} to "dependencies"`,
        data: { package: name, importer: from },
      })
      continue
    }
    const resolves = installed !== undefined && resolvesInProject(installed, name)
    findings.push({
      code: "UNDECLARED_DEPENDENCY",
      severity: resolves ? "warning" : "error",
      file: manifestFile,
      message: resolves
        ? `${from} imports ${name}, which package.json does not declare: it resolves only because another package brought it along; add ${name} to "dependencies"`
        : `${from} imports ${name}, which package.json does not declare, so it is not installed for users and opencode cannot load the plugin; add ${name} to "dependencies"`,
      data: { package: name, importer: from },
    })
  }
  return findings
}

// --- internal ---

const BUILTINS = new Set(builtinModules)

async function specifiers(file: string, source: string): Promise<string[]> {
  let analysis: Awaited<ReturnType<typeof analyzeModule>>
  try {
    analysis = await analyzeModule(file, source)
  } catch {
    return [] // A syntax error is for loading to report.
  }
  const found = analysis.imports.flatMap((site) => (site.kind === "static" ? [site.specifier] : []))
  if (!analysis.esModule) {
    for (const match of analysis.code.matchAll(/\brequire\(\s*(["'])([^"'`]+)\1\s*\)/g)) found.push(match[2]!)
  }
  for (const match of analysis.code.matchAll(/\bimport\(\s*(["'])([^"'`]+)\1\s*\)/g)) found.push(match[2]!)
  return found
}

function packageName(specifier: string): string | undefined {
  if (specifier.startsWith("node:") || specifier.startsWith("bun:") || specifier === "bun") return undefined
  if (specifier.startsWith("#") || /^[a-z]+:/i.test(specifier)) return undefined
  const parts = specifier.split("/")
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!
  if (BUILTINS.has(name) || BUILTINS.has(specifier)) return undefined
  return name
}

/** The tarball file a relative import reaches, trying what Bun tries (a .js specifier may name a .ts file). */
function resolveRelative(files: Map<string, string>, importer: string, specifier: string): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(importer), specifier))
  const stem = base.replace(/\.(m|c)?js$/, "")
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${stem}.cts`,
    ...["", ".js", ".mjs", ".cjs", ".ts", ".json"].map((extension) => base + extension),
    ...["index.js", "index.ts", "index.mjs"].map((index) => path.posix.join(base, index)),
  ]
  return candidates.find((candidate) => files.has(candidate))
}

/**
 * Whether `name` resolves from the installed package as Node and Bun look it up (each node_modules
 * from the package's folder up), in the fresh project and no further: a node_modules above it (in
 * the temporary folder, the home folder) is this machine's, not in the users' install, and would
 * pass a package they cannot load.
 */
function resolvesInProject(installed: InstalledPlugin, name: string): boolean {
  let current = installed.packageFolder
  while (true) {
    if (existsSync(path.join(current, "node_modules", name, "package.json"))) return true
    const parent = path.dirname(current)
    if (current === installed.project || parent === current) return false
    current = parent
  }
}
