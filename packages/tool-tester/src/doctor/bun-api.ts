import { createRequire } from "node:module"
import { readSourceText } from "../discovery/_source-file.ts"
import { TYPESCRIPT } from "../discovery/analyze-module.ts"
import type { ToolProject } from "../types.ts"
import type { Finding } from "./finding.ts"

/**
 * One use of Bun's API in a file: `Bun.$`, `Bun` (the object itself), `bun` or `bun:sqlite` (a
 * module), or `require` (the CommonJS function, which Bun gives ES modules too).
 */
export type BunApiUse = { api: string; line: number }

/**
 * Tool files and plugin entries that use Bun's API: the `Bun` global, or modules `bun` and
 * `bun:*`. opencode runs tools in Bun, where they work; the node engine has none of them, so such a
 * tool fails there ("Bun is not defined", an import that fails). Reported only when the doctor runs
 * in Node, one finding per file and API, at its first use.
 */
export function bunApiFindings(project: ToolProject, options: { inBun?: boolean } = {}): Finding[] {
  if (options.inBun ?? project.engine.name === "bun") return []
  // Plugin entries that failed to import are only in the diagnostics, and Bun's API is a likely reason.
  const failed = project.diagnostics.filter(
    (item) => item.code === "IMPORT_FAILED" || item.code === "PLUGIN_LOAD_FAILED" || item.code === "PLUGIN_INIT_HANGS",
  )
  const files = new Set([
    ...project.files.map((entry) => entry.file),
    ...project.plugins.map((plugin) => plugin.file),
    ...failed.flatMap((item) => (item.file === undefined ? [] : [item.file])),
  ])
  const plugins = new Set(project.plugins.map((plugin) => plugin.file))
  return [...files].flatMap((file) =>
    bunApiUses(file, readSource(file), { plugin: plugins.has(file) }).map(({ api, line }) => ({
      code: "BUN_API" as const,
      severity: "warning" as const,
      file,
      message:
        api === "require"
          ? `line ${line} calls require() in an ES module, which Bun allows and Node does not: opencode runs tools in Bun, where it works, the node engine fails with "require is not defined"; use import (or createRequire(import.meta.url)), or install opencode (the engine is found on PATH) or run with --engine bun`
          : `line ${line} ${api.startsWith("Bun") || api === SHELL ? "uses" : "imports"} ${api}, which exists only in Bun: opencode runs tools in Bun, the node engine does not have it; install opencode (the engine is found on PATH) or run with --engine bun`,
      data: { api, line },
    })),
  )
}

/**
 * Where a file uses Bun's API, from its code as it runs: TypeScript compiled by esbuild (so types,
 * comments and strings do not count), the `Bun` global found by esbuild itself (replaced by a marker,
 * which leaves local variables named `Bun` alone), `bun` modules by es-module-lexer. Lines are the
 * original file's, through esbuild's source map. Nothing for a file esbuild cannot read.
 */
export function bunApiUses(file: string, source: string, options: { plugin?: boolean } = {}): BunApiUse[] {
  const { transformSync } = load<typeof import("esbuild")>("esbuild")
  let compiled: { code: string; map: string }
  try {
    compiled = transformSync(source, {
      loader: TYPESCRIPT.test(file) ? (file.endsWith(".tsx") ? "tsx" : "ts") : "js",
      target: "esnext",
      sourcemap: "external",
      sourcesContent: false,
      legalComments: "none",
      define: { Bun: BUN_MARKER, "globalThis.Bun": BUN_MARKER, require: REQUIRE_MARKER },
    })
  } catch {
    return []
  }
  const { code } = compiled
  const lineAt = originalLines(code, (JSON.parse(compiled.map) as { mappings: string }).mappings)
  const uses = new Map<string, number>()
  const note = (api: string, offset: number) => {
    const line = lineAt(offset)
    if ((uses.get(api) ?? Number.POSITIVE_INFINITY) > line) uses.set(api, line)
  }
  for (const match of code.matchAll(BUN_GLOBAL)) {
    const member = match[1] ?? match[2] ?? match[3]
    if (member !== undefined) note(`Bun.${member}`, match.index)
    else if (!/\btypeof\s*$/.test(code.slice(Math.max(0, match.index - 10), match.index))) note("Bun", match.index)
  }
  const bunRequires = new Set<number>()
  for (const match of code.matchAll(BUN_REQUIRE)) {
    if (!isBunModule(match[2]!)) continue
    note(match[2]!, match.index)
    bunRequires.add(match.index)
  }
  for (const entry of moduleRequests(code)) if (isBunModule(entry.specifier)) note(entry.specifier, entry.start)
  // A plugin's `input.$` (or `$` taken from it): Bun's shell, used as a tagged template.
  if (options.plugin) for (const match of code.matchAll(SHELL_TEMPLATE)) note(SHELL, match.index)
  // A CommonJS file has its own require, in Node too.
  if (!/\.c[jt]s$/.test(file)) {
    for (const match of code.matchAll(FREE_REQUIRE)) {
      if (bunRequires.has(match.index)) continue
      if (!/\btypeof\s*$/.test(code.slice(Math.max(0, match.index - 10), match.index))) note("require", match.index)
    }
  }
  return [...uses].map(([api, line]) => ({ api, line })).sort((left, right) => left.line - right.line)
}

/** The advice for a tool's error that says it needs Bun's API (`Bun is not defined`, a `bun` / `bun:*` import that fails), else undefined. */
export function bunApiHint(text: string): string | undefined {
  return BUN_ERRORS.some((pattern) => pattern.test(text))
    ? "this tool uses Bun's API, which opencode has and the node engine does not: install opencode or run with --engine bun"
    : undefined
}

// --- internal ---

// Identifiers no file contains, so every match in esbuild's output is one it put there.
const BUN_MARKER = "__toolTesterBunGlobal_7f3a__"
const REQUIRE_MARKER = "__toolTesterRequire_7f3a__"
/** The global, then `.member` or `["member"]`; esbuild prints code, so strings only follow a marker inside brackets. */
const BUN_GLOBAL = new RegExp(
  `${BUN_MARKER}(?:\\s*\\??\\.\\s*([\\w$]+)|\\s*\\[\\s*(?:"([^"\\\\]*)"|'([^'\\\\]*)')\\s*\\])?`,
  "g",
)
const BUN_REQUIRE = new RegExp(`${REQUIRE_MARKER}\\s*\\(\\s*(["'\`])([^"'\`\\\\]*)\\1\\s*\\)`, "g")
const FREE_REQUIRE = new RegExp(REQUIRE_MARKER, "g")
const BUN_ERRORS = [
  /\brequire is not defined\b/,
  /\bBun is not defined\b/,
  /Cannot find (?:package|module) ['"]bun(?::[^'"]*)?['"]/,
  /Received protocol ['"]?bun:/,
]
/** `$` followed by a template: the plugin input's shell, whether read as `input.$` or destructured. */
const SHELL_TEMPLATE = /(?<![\w$])\$\s*`/g
const SHELL = "input.$ (Bun's shell)"
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

/** Loaded on first use: esbuild and the lexer take longer to load than a `tool-tester` command that never needs them. */
const load = createRequire(import.meta.url) as <Module>(name: string) => Module

function isBunModule(specifier: string): boolean {
  return specifier === "bun" || specifier.startsWith("bun:")
}

function readSource(file: string): string {
  try {
    return readSourceText(file)
  } catch {
    return ""
  }
}

/** Static imports, re-exports and `import()`s with a literal specifier, each at its `import`/`export`. */
function moduleRequests(code: string): Array<{ specifier: string; start: number }> {
  // The asm.js build parses without an asynchronous start, and doctor's findings are synchronous.
  const { parse } = load<typeof import("es-module-lexer/js")>("es-module-lexer/js")
  try {
    return parse(code)[0].flatMap((entry) =>
      typeof entry.specifier === "string" && !(entry.type === "dynamic" && entry.glob)
        ? [{ specifier: entry.specifier, start: entry.importStart }]
        : [],
    )
  } catch {
    return []
  }
}

/** Maps an offset in esbuild's output to a 1-based line of the original file, by the source map's `mappings`. */
function originalLines(code: string, mappings: string): (offset: number) => number {
  // For each generated line, its segments as [generated column, original line], in column order.
  const lines: Array<Array<[number, number]>> = []
  let originalLine = 0
  for (const group of mappings.split(";")) {
    const segments: Array<[number, number]> = []
    let column = 0
    for (const segment of group.split(",")) {
      const fields = decodeVlq(segment)
      column += fields[0] ?? 0
      if (fields.length < 4) continue
      originalLine += fields[2]!
      segments.push([column, originalLine])
    }
    lines.push(segments)
  }
  return (offset) => {
    const before = code.slice(0, offset)
    const line = before.split("\n").length - 1
    const column = offset - (before.lastIndexOf("\n") + 1)
    for (let index = line; index >= 0; index--) {
      const segments = (lines[index] ?? []).filter(([start]) => index < line || start <= column)
      const last = segments.at(-1)
      if (last) return last[1] + 1
    }
    return 1
  }
}

function decodeVlq(segment: string): number[] {
  const values: number[] = []
  let value = 0
  let shift = 0
  for (const character of segment) {
    const digit = BASE64.indexOf(character)
    value += (digit & 31) << shift
    if (digit & 32) {
      shift += 5
      continue
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1)
    value = 0
    shift = 0
  }
  return values
}
