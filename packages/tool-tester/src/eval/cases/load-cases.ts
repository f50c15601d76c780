// Reads the eval cases of a project: `.opencode/evals/*.json` (an array of cases, or
// `{ "$schema"?, "cases": [...] }`) and `*.ts`, `*.mts`, `*.js`, `*.mjs` (a default export that is an
// array of cases, which may hold RegExps and predicates); files named `_*` are helpers, not case
// files. A problem names the file, the line and the key path; a bad file or case is left out and
// every other case still loads.
import { readdir, readFile, stat } from "node:fs/promises"
import path from "node:path"
import { didYouMean } from "../../did-you-mean.ts"
import { messageOfThrown } from "../../errors.ts"
import type { ModuleImporter } from "../../discovery/import-module.ts"
import { createImporter, describeImportError } from "../../discovery/import-module.ts"
import type { EvalCase } from "../types.ts"
import { parseJsonDocument } from "./_json-locations.ts"
import type { KeyPath, ShapeProblem, ToolReference } from "./validate-case.ts"
import { formatKeyPath, NOTE_KEY, validateCase } from "./validate-case.ts"

export interface CaseProblem {
  /** `EVAL_CASE_INVALID`: the file or case is malformed. `EVAL_TOOL_UNKNOWN`: it names a tool no model is offered. */
  code: "EVAL_CASE_INVALID" | "EVAL_TOOL_UNKNOWN"
  /** Relative to the project folder when inside it, else absolute. */
  file: string
  /** 1-based, when known (JSON files: the offending key or element; JS/TS files: the case's name). */
  line?: number
  /** `cases[2].expect.calls[0].tool`, when the problem is inside a case. */
  key?: string
  /** One line: `<file>:<line>: <key>: <what is wrong and what to do>`. */
  message: string
  /** The case's name, when it has one. */
  case?: string
}

export interface LoadEvalCasesOptions {
  /** Every tool id a model is offered (built-ins included): tool ids a case names are checked against it. */
  toolIds?: string[]
  /** The folder of case files, relative to the project (default `.opencode/evals`). */
  folder?: string
}

/** Where case files live in a project, unless `folder` says otherwise. */
export const DEFAULT_EVALS_FOLDER = path.join(".opencode", "evals")

const CASE_FILE = /\.(json|ts|mts|js|mjs)$/
const MODULE_FILE = /\.(ts|mts|js|mjs)$/

/** The valid cases of a project's case files, and a problem for each thing wrong with them. */
export async function loadEvalCases(
  directory: string,
  options: LoadEvalCasesOptions = {},
): Promise<{ cases: EvalCase[]; problems: CaseProblem[] }> {
  const folder = path.resolve(directory, options.folder ?? DEFAULT_EVALS_FOLDER)
  const problems: CaseProblem[] = []
  const cases: EvalCase[] = []
  const shown = (file: string) => displayPath(directory, file)
  let names: string[]
  try {
    names = await readdir(folder)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === "ENOENT") return { cases, problems }
    const reason = code === "ENOTDIR" ? "is not a folder" : `cannot be read (${code ?? String(error)})`
    problems.push(
      problem(
        "EVAL_CASE_INVALID",
        shown(folder),
        undefined,
        undefined,
        `${reason}; point it at the folder of case files`,
      ),
    )
    return { cases, problems }
  }
  const files = names
    // `_name.ts`: a helper that case modules import, not a case file; `.d.ts`: types only.
    .filter((name) => CASE_FILE.test(name) && !name.startsWith("_") && !/\.d\.m?ts$/.test(name))
    .sort()
    .map((name) => path.join(folder, name))
  const seen = new Map<string, { file: string; line: number | undefined }>()
  // One import pass for the call: fresh module instances, so a second load sees edited files.
  let importer: ModuleImporter | undefined
  for (const file of files) {
    const info = await stat(file).catch(() => undefined)
    if (!info?.isFile()) continue
    if (MODULE_FILE.test(file)) importer ??= createImporter()
    const read = importer && MODULE_FILE.test(file) ? await readModuleFile(file, importer) : await readJsonFile(file)
    const display = shown(file)
    if (!read.success) {
      problems.push(problem("EVAL_CASE_INVALID", display, read.line, undefined, read.message, undefined, read.column))
      continue
    }
    for (const [index, entry] of read.entries.entries()) {
      const casePath: KeyPath = [index]
      const key = (relative: KeyPath) => formatKeyPath(["cases", ...casePath, ...relative])
      const line = (relative: KeyPath) => read.lineOf([...read.prefix, ...casePath, ...relative])
      const name = nameOf(entry)
      const found: CaseProblem[] = []
      const { problems: shapeProblems, tools } = safeValidateCase(entry)
      for (const shape of shapeProblems) found.push(shapeProblem(display, shape, key, line, name))
      if (options.toolIds) found.push(...unknownTools(tools, options.toolIds, display, key, line, name))
      const caseLine = line([])
      if (name !== undefined && found.length === 0) {
        const earlier = seen.get(name)
        if (earlier) {
          const where = earlier.line === undefined ? earlier.file : `${earlier.file}:${earlier.line}`
          found.push(
            problem(
              "EVAL_CASE_INVALID",
              display,
              line(["name"]),
              key(["name"]),
              `the case name ${JSON.stringify(name)} is also used at ${where}; give each case a name of its own (the history is keyed by it)`,
              name,
            ),
          )
        }
      }
      problems.push(...found)
      if (found.length > 0) continue
      seen.set(name!, { file: display, line: caseLine })
      cases.push(withSource(entry as Record<string, unknown>, display, caseLine))
    }
  }
  return { cases, problems }
}

// --- internal ---

type FileRead =
  | { success: true; entries: unknown[]; prefix: KeyPath; lineOf: (path: KeyPath) => number | undefined }
  | { success: false; line?: number | undefined; column?: number; message: string }

async function readJsonFile(file: string): Promise<FileRead> {
  let text: string
  try {
    text = await readFile(file, "utf8")
  } catch (error) {
    return { success: false, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` }
  }
  const document = parseJsonDocument(text)
  if (!document.success) {
    return { success: false, line: document.line, column: document.column, message: document.message }
  }
  const value = document.value
  if (Array.isArray(value)) return { success: true, entries: value, prefix: [], lineOf: document.lineOf }
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>
    const unknown = Object.keys(record).filter((key) => !["cases", "$schema", NOTE_KEY].includes(key))
    if (unknown.length > 0) {
      const key = unknown[0]!
      return {
        success: false,
        line: document.lineOf([key]),
        message: `${key}: unknown key ${JSON.stringify(key)}${didYouMean(key, ["cases", "$schema"]) || ` (a case file holds "cases", and may hold "$schema" and "//")`}`,
      }
    }
    if (Array.isArray(record["cases"]))
      return { success: true, entries: record["cases"], prefix: ["cases"], lineOf: document.lineOf }
    if (record["cases"] !== undefined) {
      return { success: false, line: document.lineOf(["cases"]), message: `cases: must be an array of cases` }
    }
  }
  return {
    success: false,
    line: 1,
    message: 'must hold an array of cases, or { "cases": [...] }',
  }
}

async function readModuleFile(file: string, importer: ModuleImporter): Promise<FileRead> {
  const imported = await importer(file)
  if (!imported.success) {
    const cause = imported.error.cause
    return {
      success: false,
      message: `cannot import the case file: ${cause === undefined ? imported.error.message : describeImportError(cause)}`,
    }
  }
  const exported = imported.value["default"]
  const entries = Array.isArray(exported)
    ? exported
    : Array.isArray((exported as { cases?: unknown } | null | undefined)?.cases)
      ? (exported as { cases: unknown[] }).cases
      : undefined
  if (!entries) {
    const what = exported === undefined ? "has no default export" : "its default export is not an array of cases"
    return {
      success: false,
      message: `${what}; write \`export default [{ name: "...", prompt: "...", expect: {...} }]\``,
    }
  }
  const text = await readFile(file, "utf8").catch(() => "")
  return {
    success: true,
    entries,
    prefix: [],
    // No syntax tree of the module: the line of the case's name where it is written literally.
    lineOf: (keyPath) => {
      const name = nameOf(entries[keyPath[0] as number])
      return name === undefined ? undefined : lineOfName(text, name)
    },
  }
}

/** A case from a module may be anything (a getter that throws, a Proxy): reading it is a problem, not a crash. */
function safeValidateCase(entry: unknown): ReturnType<typeof validateCase> {
  try {
    return validateCase(entry)
  } catch (error) {
    return { problems: [{ path: [], message: `cannot be read (${messageOfThrown(error)})` }], tools: [] }
  }
}

function nameOf(entry: unknown): string | undefined {
  try {
    const name = typeof entry === "object" && entry !== null ? (entry as { name?: unknown }).name : undefined
    return typeof name === "string" && name.trim() !== "" ? name : undefined
  } catch {
    return undefined
  }
}

function lineOfName(text: string, name: string): number | undefined {
  for (const quote of ['"', "'", "`"]) {
    const literal = quote === '"' ? JSON.stringify(name) : `${quote}${name}${quote}`
    const pattern = new RegExp(`\\bname["']?\\s*:\\s*${escapeRegExp(literal)}`)
    const match = pattern.exec(text)
    if (match) return text.slice(0, match.index).split("\n").length
  }
  return undefined
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}

function unknownTools(
  tools: ToolReference[],
  toolIds: string[],
  file: string,
  key: (path: KeyPath) => string,
  line: (path: KeyPath) => number | undefined,
  name: string | undefined,
): CaseProblem[] {
  // `invalid` is never offered, yet opencode reroutes bad calls to it (docs/opencode-contract.md#invalid-tool).
  const known = new Set([...toolIds, "invalid"])
  const found: CaseProblem[] = []
  for (const reference of tools) {
    if (known.has(reference.tool)) continue
    const suggestion = didYouMean(reference.tool, toolIds)
    const listed = toolIds.length <= 30 ? toolIds.join(", ") : `${toolIds.slice(0, 30).join(", ")}, …`
    const hint = suggestion || (toolIds.length === 0 ? "; no tools are offered" : ` (offered: ${listed})`)
    found.push(
      problem(
        "EVAL_TOOL_UNKNOWN",
        file,
        line(reference.path),
        key(reference.path),
        `no tool ${JSON.stringify(reference.tool)} is offered${hint}`,
        name,
      ),
    )
  }
  return found
}

function shapeProblem(
  file: string,
  shape: ShapeProblem,
  key: (path: KeyPath) => string,
  line: (path: KeyPath) => number | undefined,
  name: string | undefined,
): CaseProblem {
  // The deepest part of the path the file has (a missing key's problem is on its object).
  let found: number | undefined
  for (let length = shape.path.length; length >= 0 && found === undefined; length--)
    found = line(shape.path.slice(0, length))
  return problem("EVAL_CASE_INVALID", file, found, key(shape.path), shape.message, name)
}

function problem(
  code: CaseProblem["code"],
  file: string,
  line: number | undefined,
  key: string | undefined,
  text: string,
  name?: string,
  column?: number,
): CaseProblem {
  const where = line === undefined ? file : column === undefined ? `${file}:${line}` : `${file}:${line}:${column}`
  const result: CaseProblem = { code, file, message: `${where}: ${key === undefined ? "" : `${key}: `}${text}` }
  if (line !== undefined) result.line = line
  if (key !== undefined) result.key = key
  if (name !== undefined) result.case = name
  return result
}

function withSource(entry: Record<string, unknown>, file: string, line: number | undefined): EvalCase {
  const { [NOTE_KEY]: _note, ...rest } = entry
  return { ...(rest as unknown as EvalCase), source: line === undefined ? { file } : { file, line } }
}

function displayPath(directory: string, file: string): string {
  const relative = path.relative(path.resolve(directory), file)
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative) ? file : relative
}
