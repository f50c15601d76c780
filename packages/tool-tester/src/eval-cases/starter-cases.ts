// `tool-tester eval --init`: one starter case file per tool (`.opencode/evals/<tool id>.json`),
// made from the tool's description and JSON Schema without asking a model. A file that exists is
// never touched, and a tool id that is not a safe file name cannot write outside the folder. A
// link whose target is missing is no file to keep, and writing through it would create a file
// elsewhere: --init then writes nothing and names the link.
import { lstat, mkdir, readlink, stat, writeFile } from "node:fs/promises"
import path from "node:path"
import { ToolTesterError } from "../errors.ts"
import type { EvalCase, ToolSnapshot, ValueMatcher } from "./types.ts"
import { DEFAULT_EVALS_FOLDER } from "./load-cases.ts"
import { NOTE_KEY } from "./validate-case.ts"

/** Built-ins a model reaches for instead of a project's tool: the starter case forbids them. */
const COMPETING_BUILTINS = ["bash", "webfetch"]
/** A message that asks for nothing: no tool should be called for it. */
const SMALL_TALK_PROMPT = "Thanks, bye!"

/** Writes a starter case file for each tool that has none yet; returns the absolute paths written and kept. */
export async function writeStarterCases(
  directory: string,
  tools: ToolSnapshot[],
  options: { folder?: string } = {},
): Promise<{ written: string[]; kept: string[] }> {
  const folder = path.resolve(directory, options.folder ?? DEFAULT_EVALS_FOLDER)
  try {
    await mkdir(folder, { recursive: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== "EEXIST" && code !== "ENOTDIR") throw error
    throw new ToolTesterError(
      "PATH_NOT_FOUND",
      `${folder} is not a folder: eval's cases are the files in a folder there; move this file away and run it again`,
      {
        data: { folder },
        cause: error,
      },
    )
  }
  const files = starterFileNames(folder, tools)
  // Checked before any is written: a run refused halfway would leave some files written.
  for (const file of files.keys()) await refuseBrokenLink(file)
  const written: string[] = []
  const kept: string[] = []
  for (const [file, tool] of files) {
    const content = `${JSON.stringify(starterFile(tool), null, 2)}\n`
    try {
      // "wx": created only if absent, in one step (no window between a check and the write).
      await writeFile(file, content, { flag: "wx" })
      written.push(file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      // A link made broken since the check is not kept either.
      await refuseBrokenLink(file)
      kept.push(file)
    }
  }
  return { written, kept }
}

/** The cases a starter file holds for one tool. */
export function starterCases(tool: ToolSnapshot): EvalCase[] {
  const { prompt, args } = exampleCall(tool)
  const call: { tool: string; args?: Record<string, ValueMatcher> } = { tool: tool.id }
  if (Object.keys(args).length > 0) call.args = args
  return [
    {
      name: `${tool.id}: does its job`,
      prompt,
      expect: { calls: [call], notCalled: COMPETING_BUILTINS.filter((id) => id !== tool.id) },
    },
    {
      name: `${tool.id}: not called for small talk`,
      prompt: SMALL_TALK_PROMPT,
      expect: { notCalled: [tool.id] },
    },
  ]
}

/** A file name for a tool id that stays in its folder: separators, `..` and reserved names made harmless. */
export function safeFileName(id: string): string {
  const name = id.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, (dots) => "_".repeat(dots.length))
  // A leading "_" marks a helper file, which eval does not read as cases (`_lookup`, and `.hidden`
  // made `_hidden`), and Windows reserves these names whatever the extension: both get a prefix.
  if (name === "" || name.startsWith("_") || /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(name)) return `tool-${name}`
  return name
}

// --- internal ---

/** Each tool's file in `folder`: its safe name, made unique without case (macOS and Windows folders ignore it). */
function starterFileNames(folder: string, tools: ToolSnapshot[]): Map<string, ToolSnapshot> {
  const files = new Map<string, ToolSnapshot>()
  const taken = new Set<string>()
  for (const tool of tools) {
    const base = safeFileName(tool.id)
    let name = `${base}.json`
    for (let count = 2; taken.has(name.toLowerCase()); count++) name = `${base}-${count}.json`
    taken.add(name.toLowerCase())
    files.set(path.join(folder, name), tool)
  }
  return files
}

/** PATH_NOT_FOUND when `file` is a link whose target does not exist (or a loop of links). */
async function refuseBrokenLink(file: string): Promise<void> {
  const link = await lstat(file).catch(() => undefined)
  if (link === undefined || !link.isSymbolicLink()) return
  const target = await stat(file).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error,
  )
  if (target === undefined) return
  const pointsAt = await readlink(file).catch(() => "?")
  throw new ToolTesterError(
    "PATH_NOT_FOUND",
    `${file} is a link to ${pointsAt}, which ${target.code === "ELOOP" ? "is a loop of links" : "does not exist"}: --init wrote no case file; remove the link (or restore what it points to) and run it again`,
    { data: { file, target: pointsAt }, cause: target },
  )
}

function starterFile(tool: ToolSnapshot): Record<string, unknown> {
  return {
    [NOTE_KEY]: `Starter cases for the ${tool.id} tool, written by \`tool-tester eval --init\` from its description and schema (no model was asked). Rewrite the prompts the way your users ask, put the argument values you expect in place of {"$any": true} (a value, {"$regex": "^par", "$flags": "i"}, {"$exact": ...}), and add cases. This file is yours: --init never overwrites it.`,
    cases: starterCases(tool),
  }
}

type Schema = {
  type?: unknown
  properties?: Record<string, Schema>
  required?: unknown
  enum?: unknown[]
  const?: unknown
  default?: unknown
  examples?: unknown[]
  minimum?: unknown
}

/** A prompt made from the description and the required arguments, and what those arguments must be. */
function exampleCall(tool: ToolSnapshot): { prompt: string; args: Record<string, ValueMatcher> } {
  const schema = (typeof tool.parameters === "object" && tool.parameters !== null ? tool.parameters : {}) as Schema
  const properties = schema.properties ?? {}
  const required = Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === "string") : []
  const args: Record<string, ValueMatcher> = {}
  const pairs: string[] = []
  for (const key of required) {
    const property = properties[key] ?? {}
    const example = exampleOf(property)
    if (example !== undefined) {
      args[key] = typeof example === "object" && example !== null ? { $exact: example } : (example as ValueMatcher)
      pairs.push(`${key}=${promptValue(example)}`)
      continue
    }
    args[key] = { $any: true }
    const stand = standInValue(property)
    if (stand !== undefined) pairs.push(`${key}=${promptValue(stand)}`)
  }
  const sentence = firstSentence(tool.description) || `Use ${tool.id}`
  // `name=value` pairs apart by spaces only: a comma would read as part of the value.
  return { prompt: pairs.length > 0 ? `${sentence}. ${pairs.join(" ")}` : `${sentence}.`, args }
}

function exampleOf(property: Schema): unknown {
  if (property.const !== undefined) return property.const
  if (Array.isArray(property.examples) && property.examples.length > 0) return property.examples[0]
  if (Array.isArray(property.enum) && property.enum.length > 0) return property.enum[0]
  return property.default
}

/** A value to put in the prompt for an argument the schema gives no example of (matched as `$any`). */
function standInValue(property: Schema): unknown {
  const type = Array.isArray(property.type) ? property.type[0] : property.type
  if (type === "string") return "example"
  if (type === "number" || type === "integer")
    return typeof property.minimum === "number" ? Math.max(property.minimum, 1) : 1
  if (type === "boolean") return true
  return undefined
}

function promptValue(value: unknown): string {
  if (typeof value === "string") return /^[^\s"',=]+$/.test(value) ? value : JSON.stringify(value)
  return JSON.stringify(value)
}

/** The description's first sentence, without its final stop, on one line. */
function firstSentence(description: string): string {
  const flat = description.replace(/\s+/g, " ").trim()
  const end = flat.search(/[.!?](\s|$)/)
  const sentence = end === -1 ? flat : flat.slice(0, end)
  return sentence.length > 300 ? sentence.slice(0, 300).trimEnd() : sentence
}
