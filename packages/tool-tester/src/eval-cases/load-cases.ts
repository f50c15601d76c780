// Reads the eval cases of a project: `.opencode/evals/*.json` (an array of cases, or
// `{ "$schema"?, "cases": [...] }`) and `*.ts`, `*.mts`, `*.js`, `*.mjs` (a default export that is an
// array of cases, which may hold RegExps and predicates); files named `_*` are helpers, not case
// files. A problem names the file, the line and the key path; a bad file or case is left out and
// every other case still loads.
import { readdir } from "node:fs/promises"
import path from "node:path"
import { didYouMean } from "../did-you-mean.ts"
import type { ModuleImporter } from "../discovery/import-module.ts"
import { createImporter } from "../discovery/import-module.ts"
import { messageOfThrown } from "../errors.ts"
import type { EvalCase } from "./types.ts"
import { MODULE_FILE, nameOf, readCaseFile } from "./read-case-file.ts"
import type { KeyPath, ToolReference } from "./validate-case.ts"
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
  /**
   * "import" (the default): TS and JS case files are imported here. "leave": they are not read at
   * all; eval's own process leaves them to an engine (src/eval/project-cases.ts).
   */
  moduleFiles?: "import" | "leave"
  /** Case files (absolute paths) not to read: they ended or stalled an engine while imported. */
  skip?: readonly string[]
}

/** Where case files live in a project, unless `folder` says otherwise. */
export const DEFAULT_EVALS_FOLDER = path.join(".opencode", "evals")

/** The valid cases of a project's case files, and a problem for each thing wrong with them. */
export async function loadEvalCases(
  directory: string,
  options: LoadEvalCasesOptions = {},
): Promise<{ cases: EvalCase[]; problems: CaseProblem[] }> {
  const folder = path.resolve(directory, options.folder ?? DEFAULT_EVALS_FOLDER)
  const problems: CaseProblem[] = []
  const cases: EvalCase[] = []
  let names: string[]
  try {
    names = await readdir(folder)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === "ENOENT") return { cases, problems }
    // eval reads its cases from the files in this folder, and no option moves it (the CLI's).
    const message =
      code === "ENOTDIR"
        ? "is not a folder: eval reads its cases from the files in a folder there; move this file away, and eval --init writes starter cases"
        : `cannot be read (${code ?? String(error)}): eval reads its cases from the files in this folder; let this user read it`
    problems.push(problem({ code: "EVAL_CASE_INVALID", file: displayPath(directory, folder), message }))
    return { cases, problems }
  }
  const seen = new Map<string, string>()
  // One import pass for the call: fresh module instances, so a second load sees edited files.
  let importer: ModuleImporter | undefined
  const leave = (name: string) =>
    (options.moduleFiles === "leave" && MODULE_FILE.test(name)) || options.skip?.includes(path.join(folder, name))
  for (const name of names.filter(isCaseFile).sort()) {
    if (leave(name)) continue
    const file = displayPath(directory, path.join(folder, name))
    const read = await readCaseFile(path.join(folder, name), () => (importer ??= createImporter()))
    if (!read.success) {
      const { line, column, key, message } = read
      problems.push(problem({ code: "EVAL_CASE_INVALID", file, line, column, key, message }))
      continue
    }
    for (const [index, entry] of read.entries.entries()) {
      const at = (relative: KeyPath) => ({
        file,
        line: lineOf(read.lineOf, [index, ...relative]),
        key: formatKeyPath(["cases", index, ...relative]),
        case: nameOf(entry),
      })
      const { problems: shapes, tools } = safeValidateCase(entry)
      const found = shapes.map((shape) =>
        problem({ code: "EVAL_CASE_INVALID", ...at(shape.path), message: shape.message }),
      )
      if (options.toolIds) found.push(...unknownTools(tools, options.toolIds, at))
      const caseName = nameOf(entry)
      const earlier = caseName === undefined ? undefined : seen.get(caseName)
      if (found.length === 0 && earlier !== undefined) {
        const message = `the case name ${JSON.stringify(caseName)} is also used at ${earlier}; give each case a name of its own (the history is keyed by it)`
        found.push(problem({ code: "EVAL_CASE_INVALID", ...at(["name"]), message }))
      }
      problems.push(...found)
      if (found.length > 0 || caseName === undefined) continue
      const line = read.lineOf([index])
      seen.set(caseName, line === undefined ? file : `${file}:${line}`)
      cases.push(withSource(entry as Record<string, unknown>, file, line))
    }
  }
  return { cases, problems }
}

/** `_name.ts` is a helper that case modules import, not a case file; `.d.ts` holds types only. */
export function isCaseFile(name: string): boolean {
  return CASE_FILE.test(name) && !name.startsWith("_") && !/\.d\.m?ts$/.test(name)
}

/** A file as problems name it: relative to the project folder when inside it, else absolute. */
export function displayPath(directory: string, file: string): string {
  const relative = path.relative(path.resolve(directory), file)
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative) ? file : relative
}

// --- internal ---

const CASE_FILE = /\.(json|ts|mts|js|mjs)$/

/** The line of a path, or of the deepest part of it the file has (a missing key's problem is on its object). */
function lineOf(find: (path: KeyPath) => number | undefined, path: KeyPath): number | undefined {
  for (let length = path.length; length >= 1; length--) {
    const line = find(path.slice(0, length))
    if (line !== undefined) return line
  }
  return undefined
}

/** A case from a module may be anything (a getter that throws, a Proxy): reading it is a problem, not a crash. */
function safeValidateCase(entry: unknown): ReturnType<typeof validateCase> {
  try {
    return validateCase(entry)
  } catch (error) {
    return { problems: [{ path: [], message: `cannot be read (${messageOfThrown(error)})` }], tools: [] }
  }
}

type Where = { file: string; line: number | undefined; key: string; case: string | undefined }

function unknownTools(tools: ToolReference[], toolIds: string[], at: (path: KeyPath) => Where): CaseProblem[] {
  // `invalid` is never offered, yet opencode reroutes bad calls to it (docs/opencode-contract.md#invalid-tool).
  const known = new Set([...toolIds, "invalid"])
  const listed = toolIds.length <= 30 ? toolIds.join(", ") : `${toolIds.slice(0, 30).join(", ")}, …`
  return tools
    .filter((reference) => !known.has(reference.tool))
    .map((reference) => {
      const hint =
        didYouMean(reference.tool, toolIds) ||
        (toolIds.length === 0 ? "; no tools are offered" : ` (offered: ${listed})`)
      const message = `no tool ${JSON.stringify(reference.tool)} is offered${hint}`
      return problem({ code: "EVAL_TOOL_UNKNOWN", ...at(reference.path), message })
    })
}

function problem(fields: {
  code: CaseProblem["code"]
  file: string
  line?: number | undefined
  column?: number | undefined
  key?: string | undefined
  case?: string | undefined
  message: string
}): CaseProblem {
  const { code, file, line, column, key } = fields
  const where = line === undefined ? file : column === undefined ? `${file}:${line}` : `${file}:${line}:${column}`
  const result: CaseProblem = {
    code,
    file,
    message: `${where}: ${key === undefined ? "" : `${key}: `}${fields.message}`,
  }
  if (line !== undefined) result.line = line
  if (key !== undefined) result.key = key
  if (fields.case !== undefined) result.case = fields.case
  return result
}

function withSource(entry: Record<string, unknown>, file: string, line: number | undefined): EvalCase {
  const { [NOTE_KEY]: _note, ...rest } = entry
  return { ...(rest as unknown as EvalCase), source: line === undefined ? { file } : { file, line } }
}
