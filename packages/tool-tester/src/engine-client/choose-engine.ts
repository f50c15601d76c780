// The one place that decides which engine loads and runs the tools: `bun` (the runtime opencode
// runs tools in) or `node` (tool-tester's own loader, for machines without opencode or Bun).
// `--engine` / the `engine` option first, then TOOL_TESTER_ENGINE, then `auto`: bun when one is
// found on this machine, else node with a notice.
import { definedFields } from "../_defined-fields.ts"
import { ToolTesterError } from "../errors.ts"
import { ENGINE_CHOICES, type EngineChoice, type EngineInfo } from "../runtime/here.ts"
import type { BunLocation, FindBunOptions } from "./find-bun.ts"
import { describeBunSource, findBun, resolveBun } from "./find-bun.ts"
import { findOnPath } from "../opencode/opencode-binary.ts"

export type EngineSelection = { name: "node" } | { name: "bun"; location: BunLocation }

export type ChooseEngineOptions = FindBunOptions & {
  /** `auto` (the default), `bun` or `node`; TOOL_TESTER_ENGINE when not given. */
  engine?: string | undefined
}

export type ChosenEngine = {
  selection: EngineSelection
  /** One line for stderr when `auto` fell back to node. */
  notice?: string
}

/** The engine as asked: the option, else TOOL_TESTER_ENGINE, else auto. Throws for an unknown name. */
export function engineChoice(options: ChooseEngineOptions): EngineChoice {
  const fromOption = options.engine !== undefined
  const given = options.engine ?? options.env["TOOL_TESTER_ENGINE"] ?? "auto"
  const choice = given === "" ? "auto" : given
  if ((ENGINE_CHOICES as readonly string[]).includes(choice)) return choice as EngineChoice
  throw new ToolTesterError(
    "USAGE",
    `${fromOption ? "--engine" : "TOOL_TESTER_ENGINE"} is "${given}": use auto, bun or node`,
    // data.option names the option, as for loadTools()'s other options; the environment's value names its variable.
    { data: fromOption ? { option: "engine", engine: given } : { variable: "TOOL_TESTER_ENGINE", engine: given } },
  )
}

/**
 * The engine to use without installing anything, or undefined when the bun engine was asked for by
 * name and no Bun is on this machine yet (then {@link chooseEngine} installs npm's).
 */
export function chooseEngineNow(
  options: ChooseEngineOptions,
  find: (options: FindBunOptions) => BunLocation | undefined = findBun,
): ChosenEngine | undefined {
  const choice = engineChoice(options)
  if (choice === "node") return { selection: { name: "node" } }
  const location = find(options)
  if (location) return { selection: { name: "bun", location } }
  if (choice === "bun") return undefined
  return { selection: { name: "node" }, notice: fallbackNotice(options.env) }
}

/**
 * Why auto runs the tools on Node. A `bun` on PATH is not taken on its own (it need not be the Bun
 * opencode embeds), but a Bun user has one: "no Bun found" would be wrong there, and the way to
 * use it is `--engine-binary bun`.
 */
function fallbackNotice(env: Record<string, string | undefined>): string {
  const bun = findOnPath("bun", env)
  if (bun === undefined)
    return "tool-tester: no opencode or Bun found, so tools run on Node, not in the Bun opencode runs them in: install opencode, or pass --engine bun to download Bun"
  return `tool-tester: no opencode found, so tools run on Node, not in the Bun opencode runs them in; the bun on PATH (${bun}) is used only when asked, since it may not be the Bun opencode embeds: pass --engine-binary bun to run them in it, or install opencode`
}

/** What the bun engine did not find, as a notice says it: "no opencode or Bun", or only "no opencode" with a bun on PATH (there, just not taken on its own). */
export function nothingFound(env: Record<string, string | undefined>): string {
  return findOnPath("bun", env) === undefined ? "no opencode or Bun found" : "no opencode found"
}

/** A notice as the library prints it: a test chooses the engine with loadTools()'s option, vitest has no --engine flag. */
export function libraryNotice(notice: string): string {
  return notice
    .replace("pass --engine-binary bun", 'pass engineBinary: "bun" to loadTools()')
    .replace("pass --engine bun", 'pass engine: "bun" to loadTools()')
}

/**
 * An engine error as the library throws it: loadTools() takes options, not the CLI's flags, so the
 * flags its message names are the options' names (`engine`, `engineBinary`).
 */
export function libraryError(error: unknown): unknown {
  if (!ToolTesterError.isInstance(error) || !LIBRARY_WORDED.has(error.code)) return error
  const message = error.message
    .replaceAll("--engine-binary PATH", "engineBinary")
    .replaceAll("--engine-binary", "engineBinary")
    .replace(/--engine (bun|node)\b/g, 'engine: "$1"')
    .replaceAll("--engine", "engine")
  if (message === error.message) return error
  return new ToolTesterError(error.code, message, definedFields({ data: error.data, cause: error.cause }))
}

const LIBRARY_WORDED = new Set<string>(["USAGE", "ENGINE_NOT_FOUND", "ENGINE_FAILED"])

/** {@link chooseEngineNow}, installing npm's Bun when the bun engine is asked for and none is here. */
export async function chooseEngine(options: ChooseEngineOptions & { signal?: AbortSignal }): Promise<ChosenEngine> {
  return chooseEngineNow(options) ?? { selection: { name: "bun", location: await resolveBun(options) } }
}

/** "bun 1.3.14 (opencode on PATH: /usr/local/bin/opencode)", for human reports. */
export function describeEngine(engine: EngineInfo, source?: BunLocation["source"]): string {
  const where = source === undefined ? engine.binary : `${describeBunSource(source)}: ${engine.binary}`
  return `${engine.name} ${engine.version} (${where})`
}
