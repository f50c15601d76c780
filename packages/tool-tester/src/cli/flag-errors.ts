// What a command line that node:util parseArgs refused should have said: the closest option for
// a typo (`--jsn` → `--json`), and for `run`, a tool's own argument given as an option
// (`--city Paris`) rewritten as the key=value pair run takes (`city=Paris`).
import type { ParseArgsConfig } from "node:util"
import { parseArgs } from "node:util"
import { shellWord } from "../_shell-quote.ts"
import { closestMatch } from "../did-you-mean.ts"
import { ToolTesterError } from "../errors.ts"
import { textUnderEverySchema } from "../tasks/key-value-args.ts"
import { COMMAND_OPTIONS } from "./option-table.ts"

export type FlagContext = {
  /** The command, for the help to point at (`tool-tester run --help`). */
  command?: string | undefined
  /** The words that run this bin from where it was typed (invocation.ts), so the help pointed at pastes. */
  run: string
  /** The command takes a tool's arguments as key=value pairs (run). */
  toolArguments?: boolean | undefined
  /** The command's first positional is a tool name (run, fuzz), which may start with a dash. */
  toolName?: boolean | undefined
  /** The command takes no positional and reads its script from --script (e2e): a `.json` word is that file given without it. */
  scriptOption?: boolean | undefined
  /** The command takes no positional and reads one tool's id from --tool (schema): a word is that id given without it. */
  toolOption?: boolean | undefined
}

/** The usage error for a command line parseArgs refused with `error`. */
export function flagError(error: unknown, config: ParseArgsConfig, context: FlagContext): ToolTesterError {
  const help = helpHint(context)
  const unknown = unknownOption(config)
  if (unknown) {
    const known = Object.keys(config.options ?? {})
    const match = unknown.name.length > 1 ? closestMatch(unknown.name, known) : undefined
    if (match !== undefined) {
      return new ToolTesterError("USAGE", `unknown option ${unknown.rawName}; did you mean --${match}? (${help})`, {
        data: { option: unknown.rawName, suggestion: `--${match}` },
      })
    }
    // Where the tool name goes, a word with a dash may be a tool's name (a file `-dash.ts`): said
    // whether or not such a tool exists, which only loading the project could tell (`--city=Paris`
    // is an option with its value, not a name).
    const named = context.toolName && unknown.nameExpected && !unknown.word.includes("=")
    const dashed = named ? dashedName(unknown.word, context) : ""
    if (context.toolArguments && unknown.rawName.startsWith("--")) return toolArgumentError(unknown, help, dashed)
    const within = unknown.word === unknown.rawName ? "" : ` (in ${unknown.word})`
    return new ToolTesterError("USAGE", `unknown option ${unknown.rawName}${within}${dashed} (${help})`, {
      data: { option: unknown.rawName },
    })
  }
  const message = error instanceof Error ? error.message : String(error)
  const script = context.scriptOption ? scriptWithoutOption(message, config.args ?? []) : undefined
  if (script !== undefined) {
    return new ToolTesterError(
      "USAGE",
      `unexpected argument ${script}; to play it as the e2e script, give it with --script ${shellWord(script)} (${help})`,
      { data: { argument: script, suggestion: `--script ${script}` } },
    )
  }
  const tool = context.toolOption ? toolWithoutOption(message, config.args ?? []) : undefined
  if (tool !== undefined) {
    return new ToolTesterError(
      "USAGE",
      `unexpected argument ${tool}; to show only that tool, give it with --tool ${shellWord(tool)} (${help})`,
      { data: { argument: tool, suggestion: `--tool ${tool}` } },
    )
  }
  // Node's text for `--dir --json` spans three lines; one line says the same.
  const ambiguous = /^Option '(-[^']*)' argument is ambiguous/.exec(message)
  if (ambiguous) {
    const flag = ambiguous[1]!
    return new ToolTesterError(
      "USAGE",
      `${flag} needs a value, and the word after it starts with a dash: give the value after ${flag} (or write ${flag}=VALUE when the value itself starts with a dash); ${help}`,
      { data: { option: flag } },
    )
  }
  // Node adds advice about `--` that fits its own parser, not this command line.
  const plain = message.replace(/\s*To specify a positional argument.*$/s, "").replace(/\.$/, "")
  return new ToolTesterError("USAGE", `${plain}; ${help}`)
}

/**
 * The first option given an empty value, which none can use (an unset shell variable, `--plugin ""`):
 * `--plugin ""` would tell the user to install nothing, `--model ""` select no model, `--dir ""`
 * mean the working folder. `--raw-args ""` is the empty text a model can send, kept.
 */
export function emptyOption(values: Record<string, unknown>): string | undefined {
  for (const [name, value] of Object.entries(values)) {
    if (name === "raw-args") continue
    if (value === "" || (Array.isArray(value) && value.includes(""))) return name
  }
  return undefined
}

/** The usage error for an option given an empty value. */
export function emptyOptionError(name: string, context: FlagContext): ToolTesterError {
  return new ToolTesterError("USAGE", `--${name} is empty: give it a value, or leave it out (${helpHint(context)})`, {
    data: { option: `--${name}` },
  })
}

// --- internal ---

/**
 * The `.json` file parseArgs refused as a positional (`e2e weather.e2e.json`), when no --script was
 * given: the script, given without its option.
 */
function scriptWithoutOption(message: string, args: readonly string[]): string | undefined {
  const word = /^Unexpected argument '(.*)'\. This command does not take positional arguments/s.exec(message)?.[1]
  if (word === undefined || !/\.json$/i.test(word)) return undefined
  const given = args.some((arg) => arg === "--script" || arg.startsWith("--script="))
  return given ? undefined : word
}

/** The word parseArgs refused as a positional (`schema weather`), when no --tool was given: the tool id, given without its option. */
function toolWithoutOption(message: string, args: readonly string[]): string | undefined {
  const word = /^Unexpected argument '(.*)'\. This command does not take positional arguments/s.exec(message)?.[1]
  if (word === undefined) return undefined
  const given = args.some((arg) => arg === "--tool" || arg.startsWith("--tool="))
  return given ? undefined : word
}

function helpHint(context: FlagContext): string {
  return `see ${context.run} ${context.command === undefined ? "" : `${context.command} `}--help`
}

type UnknownOption = {
  name: string
  rawName: string
  value: string | undefined
  /** The word of the command line it came from (`-dash` for `-d`). */
  word: string
  /** No positional came before it: it stands where a command's first positional (a tool name) goes. */
  nameExpected: boolean
}

/** The first option the config does not define, with the value written after it (`--city Paris`, `--city=Paris`). */
function unknownOption(config: ParseArgsConfig): UnknownOption | undefined {
  const options = config.options ?? {}
  const shorts = new Set(Object.values(options).map((option) => option.short))
  const tokens = tokensOf(config)
  let nameExpected = true
  for (const [position, token] of tokens.entries()) {
    if (token.kind === "positional") nameExpected = false
    if (token.kind !== "option") continue
    // (A known short option's token is named by its long name: `-h` is `help`.)
    const known = token.rawName.startsWith("--") ? token.name in options : shorts.has(token.rawName.slice(1))
    if (known) continue
    const next = tokens[position + 1]
    const value =
      token.inlineValue === true
        ? token.value
        : next?.kind === "positional" && next.index === token.index + 1 && !next.value.includes("=")
          ? next.value
          : negativeNumberAfter(config, token.index)
    return {
      name: token.name,
      rawName: token.rawName,
      value,
      word: config.args?.[token.index] ?? token.rawName,
      nameExpected,
    }
  }
  return undefined
}

/** How to give a tool name that starts with a dash, which the parser reads as options: after `--`. */
function dashedName(word: string, context: FlagContext): string {
  return `; a tool name that starts with a dash goes after --, once the options are given: ${context.run} ${context.command ?? "run"} [options] -- ${shellWord(word)}`
}

/** `-5` (or `-2.5`, `-1e3`) after `--offset`: a value, though Node's parser reads it as options. */
function negativeNumberAfter(config: ParseArgsConfig, index: number): string | undefined {
  const following = config.args?.[index + 1]
  return following !== undefined && /^-(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$/.test(following)
    ? following
    : undefined
}

function tokensOf(config: ParseArgsConfig) {
  try {
    return parseArgs({ ...config, strict: false, allowPositionals: true, tokens: true }).tokens
  } catch {
    return []
  }
}

/** `--city Paris` given to run: the tool's argument, written the way run takes it. */
function toolArgumentError(unknown: UnknownOption, help: string, dashed: string): ToolTesterError {
  const { name, value } = unknown
  // With no value, what the argument needs depends on its schema, which a usage error does not
  // load: `name=true` is a boolean only where the schema says boolean, the text "true" elsewhere.
  const pair = `${name}=${value ?? "VALUE"}`
  const written =
    value === undefined
      ? `${shellWord(pair)}, such as ${shellWord(`${name}=true`)} for a boolean argument`
      : shellWord(pair)
  // key=value is read with the tool's schema (`5` stays a string for a string argument, `[1]` is an
  // array for an array argument); JSON is not, so it is offered only for text that is a string either way.
  const json =
    value === undefined || !textUnderEverySchema(value)
      ? ""
      : ` (or --args ${shellWord(JSON.stringify({ [name]: value }))})`
  // An option of another command (fuzz's --runs) was most likely meant for that command.
  const owners = Object.entries(COMMAND_OPTIONS)
    .filter(([command, table]) => command !== "run" && Object.hasOwn(table, unknown.name))
    .map(([command]) => command)
  const elsewhere = owners.length === 0 ? "" : ` (it is an option of ${owners.join(" and ")})`
  return new ToolTesterError(
    "USAGE",
    `${unknown.rawName} is not an option of run${elsewhere}; a tool's own arguments are written key=value: ${written}${json}${dashed} (${help})`,
    // toolArgument: the hint a command with the tool's schema at hand can make exact (tool-argument-hint.ts).
    {
      data: {
        option: unknown.rawName,
        suggestion: pair,
        ...(value === undefined && owners.length === 0 && dashed === "" ? { toolArgument: name } : {}),
      },
    },
  )
}
