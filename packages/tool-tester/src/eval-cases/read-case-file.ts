// Reads one case file into its list of cases, with a way to find the line of any key path in it:
// JSON (an array, or `{ "$schema"?, "//"?, "cases": [...] }`) through its syntax tree; TS and JS
// modules (their default export) through the loader tool files use, without Node module hooks, so
// a case may hold RegExps and predicates. Modules are user code: eval reads them only in an
// engine's process (src/tasks/eval-cases-task.ts), never in its own.
import { escapeRegExp } from "../_escape-regexp.ts"
import { readFile } from "node:fs/promises"
import { didYouMean } from "../did-you-mean.ts"
import { sourceFileProblem } from "../discovery/_source-file.ts"
import type { ModuleImporter } from "../discovery/import-module.ts"
import { describeImportError } from "../discovery/import-module.ts"
import { parseJsonDocument } from "./_json-locations.ts"
import type { KeyPath } from "./validate-case.ts"
import { NOTE_KEY } from "./validate-case.ts"

export type CaseFileRead =
  | {
      success: true
      entries: unknown[]
      /** The line of a key path below the list (`[2, "expect", "calls"]`), when the file shows it. */
      lineOf: (path: KeyPath) => number | undefined
    }
  | { success: false; line?: number | undefined; column?: number; key?: string; message: string }

/** TS and JS case files: imported. Others (`.json`): parsed. */
export const MODULE_FILE = /\.(ts|mts|js|mjs)$/

export async function readCaseFile(file: string, importer: () => ModuleImporter): Promise<CaseFileRead> {
  const problem = sourceFileProblem(file)
  if (problem !== undefined) return { success: false, message: problem }
  return MODULE_FILE.test(file) ? readModuleFile(file, importer()) : readJsonFile(file)
}

/** The case's name when it has one (reading a module's value never throws here). */
export function nameOf(entry: unknown): string | undefined {
  try {
    const name = typeof entry === "object" && entry !== null ? (entry as { name?: unknown }).name : undefined
    return typeof name === "string" && name.trim() !== "" ? name : undefined
  } catch {
    return undefined
  }
}

// --- internal ---

const FILE_KEYS = ["cases", "$schema"]

async function readJsonFile(file: string): Promise<CaseFileRead> {
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
  if (Array.isArray(value)) return { success: true, entries: value, lineOf: document.lineOf }
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>
    const unknown = Object.keys(record).find((key) => !FILE_KEYS.includes(key) && key !== NOTE_KEY)
    if (unknown !== undefined) {
      const hint = didYouMean(unknown, FILE_KEYS) || ` (a case file holds "cases", and may hold "$schema" and "//")`
      return {
        success: false,
        line: document.lineOf([unknown]),
        key: unknown,
        message: `unknown key ${JSON.stringify(unknown)}${hint}`,
      }
    }
    if (Array.isArray(record["cases"])) {
      return { success: true, entries: record["cases"], lineOf: (path) => document.lineOf(["cases", ...path]) }
    }
    if (record["cases"] !== undefined) {
      return { success: false, line: document.lineOf(["cases"]), key: "cases", message: "must be an array of cases" }
    }
  }
  return { success: false, line: 1, message: 'must hold an array of cases, or { "cases": [...] }' }
}

async function readModuleFile(file: string, importer: ModuleImporter): Promise<CaseFileRead> {
  const imported = await importer(file)
  if (!imported.success) {
    const cause = imported.error.cause
    const reason = cause === undefined ? imported.error.message : describeImportError(cause)
    return { success: false, message: `cannot import the case file: ${reason}` }
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
    // No syntax tree of the module: the line where the case's name is written as a literal.
    lineOf: (path) => {
      const name = nameOf(entries[path[0] as number])
      return name === undefined ? undefined : lineOfName(text, name)
    },
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
