// `run greet --loud`: a tool's argument written as an option with no value. Which value it needs
// depends on the argument's schema, which parsing the command line does not know: flag-errors.ts
// answers `loud=VALUE, such as loud=true for a boolean argument`. run's engine is already started
// (main.ts starts it before the flags are read), so once that usage error is decided the project is
// loaded in it to say exactly `loud=true`, `name=TEXT`, or that the tool has no such argument. No
// successful command does any of this, and no second engine is started; when loading fails or
// takes long, today's hint stands. `run` and `fuzz` with no tool name list the project's tools the
// same way, in the engine each had started.
import { parseArgs } from "node:util"
import { shellWord } from "../_shell-quote.ts"
import { ToolTesterError } from "../errors.ts"
import type { StartedEngine } from "../tasks/engine-task.ts"
import { runTaskInEngine } from "../tasks/engine-task.ts"
import { argsFromPairs } from "../tasks/key-value-args.ts"
import type { SchemaPayload } from "../tasks/schema-task.ts"
import type { CliIO } from "./_command.ts"
import { projectInput } from "./_command.ts"
import { COMMAND_OPTIONS, parseConfigOf } from "./option-table.ts"

/** How long loading the project for a hint may take: a usage error does not wait as a run would. */
const HINT_LOAD_MS = 10_000

/** `error`, made exact for the argument's schema when it is run's generic hint for an option with no value. */
export async function exactToolArgumentHint(
  error: unknown,
  argv: string[],
  io: CliIO,
  worker: StartedEngine | undefined,
): Promise<unknown> {
  const argument = ToolTesterError.isInstance(error) ? error.data?.["toolArgument"] : undefined
  if (typeof argument !== "string" || worker === undefined) return error
  const schema = await toolParameters(argv, io, worker).catch(() => undefined)
  if (schema === undefined) return error
  const { tool, parameters } = schema
  const generic = error as ToolTesterError
  const properties = (parameters["properties"] ?? {}) as Record<string, { type?: unknown }>
  if (!Object.hasOwn(properties, argument)) {
    const names = Object.keys(properties)
    const has = names.length === 0 ? "it takes none" : `its arguments: ${names.join(", ")}`
    const message = generic.message.replace(
      /; a tool's own arguments are written key=value: .*? \(see /,
      `, and ${tool} has no argument ${argument} (${has}); a tool's own arguments are written key=value (see `,
    )
    return rewritten(generic, message, undefined)
  }
  const value = valueFor(properties[argument]!.type)
  if (value === undefined) return error
  const pair = `${argument}=${value}`
  const message = generic.message.replace(/key=value: .*? \(see /, `key=value: ${shellWord(pair)} (see `)
  return rewritten(generic, message, pair)
}

/**
 * `run echo hello`: a value written without its name. When the tool has one argument the pairs
 * left to give the bare words to (its only required one not given, else its only one not given),
 * and the schema reads them as its value, the pair to write (`input=hello`); else `error` as it is.
 */
export async function bareWordHint(
  error: unknown,
  argv: string[],
  io: CliIO,
  worker: StartedEngine | undefined,
): Promise<unknown> {
  const data = ToolTesterError.isInstance(error) ? error.data : undefined
  const words = data?.["bareWords"]
  if (typeof words !== "string" || worker === undefined) return error
  const schema = await toolParameters(argv, io, worker).catch(() => undefined)
  if (schema === undefined) return error
  // The arguments no pair gave: of those, its only required one, else its only one.
  const given = new Set(Array.isArray(data?.["givenKeys"]) ? (data["givenKeys"] as unknown[]).map(String) : [])
  const names = Object.keys((schema.parameters["properties"] ?? {}) as Record<string, unknown>).filter(
    (name) => !given.has(name),
  )
  const required = (Array.isArray(schema.parameters["required"]) ? (schema.parameters["required"] as unknown[]) : [])
    .map(String)
    .filter((name) => !given.has(name))
  const argument =
    required.length === 1 ? required[0] : required.length === 0 && names.length === 1 ? names[0] : undefined
  if (argument === undefined || !fits(`${argument}=${words}`, schema.parameters)) return error
  const pair = shellWord(`${argument}=${words}`)
  return rewritten(error as ToolTesterError, `${(error as ToolTesterError).message}; did you mean ${pair}?`, pair)
}

// --- internal ---

/** Whether the pair is one the schema reads (`lines=hello` is not, for a number): only such a pair is suggested. */
function fits(pair: string, parameters: Record<string, unknown>): boolean {
  try {
    argsFromPairs([pair], parameters)
    return true
  } catch {
    return false
  }
}

/** What to write after `name=` for an argument of this JSON Schema type; undefined where no one word says it. */
function valueFor(type: unknown): string | undefined {
  switch (type) {
    case "boolean":
      return "true"
    case "string":
      return "TEXT"
    case "integer":
    case "number":
      return "NUMBER"
    default:
      return undefined
  }
}

function rewritten(error: ToolTesterError, message: string, suggestion: string | undefined): unknown {
  if (message === error.message) return error
  const {
    toolArgument: _argument,
    bareWords: _words,
    givenKeys: _given,
    suggestion: _suggestion,
    ...data
  } = error.data ?? {}
  return new ToolTesterError("USAGE", message, {
    data: suggestion === undefined ? data : { ...data, suggestion },
  })
}

/**
 * `run` or `fuzz` with no tool name: `error` with the tools it could name added (`the project's
 * tools: echo, big`), loaded in the engine the command had already started; `error` as it is when
 * loading fails or the project has none.
 */
export async function toolNamesHint(
  error: unknown,
  command: HintedCommand,
  argv: string[],
  io: CliIO,
  worker: StartedEngine | undefined,
) {
  if (!ToolTesterError.isInstance(error) || worker === undefined) return error
  const tools = await loadedSchemas(command, argv, io, worker, undefined).catch(() => undefined)
  if (tools === undefined || tools.length === 0) return error
  const names = tools.map((schema) => schema.name).join(", ")
  return rewritten(error, `${error.message} (the project's tools: ${names})`, undefined)
}

/** The named tool's parameters as the provider gets them, loaded in run's engine; undefined when that fails. */
async function toolParameters(
  argv: string[],
  io: CliIO,
  worker: StartedEngine,
): Promise<{ tool: string; parameters: Record<string, unknown> } | undefined> {
  const tool = lenientFlags("run", argv).positionals[0]
  if (tool === undefined) return undefined
  const found = (await loadedSchemas("run", argv, io, worker, tool))?.find((schema) => schema.name === tool)
  return found === undefined ? undefined : { tool, parameters: found.parameters }
}

/** The project's tools as the provider gets them (only `tool` when given), loaded in the command's engine; undefined when that fails. */
async function loadedSchemas(
  command: HintedCommand,
  argv: string[],
  io: CliIO,
  worker: StartedEngine,
  tool: string | undefined,
): Promise<SchemaPayload["tools"] | undefined> {
  const { values } = lenientFlags(command, argv)
  // (json: no notice about the project folder on the way to a usage error.)
  const flags = { ...(values as Parameters<typeof projectInput>[0]), json: true }
  // fuzz takes no --provider/--model: the tools are loaded as fuzz loads them.
  const model = command === "run" ? (values as Parameters<typeof projectInput>[1]) : {}
  const input = { ...projectInput(flags, model, io), tool }
  // Tools see process.cwd() = the project directory, as under opencode (and as run would have had it).
  io.chdir(input.directory)
  // The engine was started for run or fuzz; what it loads is decided by the task it is given.
  const outcome = await runTaskInEngine(
    { command: "schema", input },
    { loadTimeoutMs: HINT_LOAD_MS, runTimeoutMs: HINT_LOAD_MS, graceMs: 0 },
    { ...worker, command: "schema" },
  )
  return outcome.kind === "done" ? (outcome.payload as SchemaPayload).tools : undefined
}

/** The commands whose usage errors are made exact by loading the project in their engine. */
type HintedCommand = "run" | "fuzz"

/** The flags the command knows, read leniently: the unknown one (and what follows it) aside. */
function lenientFlags(command: HintedCommand, argv: string[]) {
  return parseArgs({
    args: argv,
    options: parseConfigOf(COMMAND_OPTIONS[command]),
    allowPositionals: true,
    strict: false,
  })
}
