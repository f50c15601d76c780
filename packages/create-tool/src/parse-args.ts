import { parseArgs } from "node:util"
import { closestName } from "./did-you-mean.ts"
import { CreateToolError } from "./errors.ts"
import { printable, quoted } from "./printable.ts"

// The command line, read into plain values. No defaults are applied here: a value left undefined
// is asked for in a terminal, or takes its documented default otherwise.

export type CliArguments = {
  name: string | undefined
  dir: string | undefined
  global: boolean
  plugin: boolean
  /** --tool-name: a plugin's tool id. */
  toolName: string | undefined
  exports: string[] | undefined
  template: string | undefined
  js: boolean
  description: string | undefined
  /** False with --no-test. */
  test: boolean
  force: boolean
  /** False with --no-interactive or --yes; undefined: decided by whether a terminal is attached. */
  interactive: false | undefined
  help: boolean
  version: boolean
}

export const helpMessage = `Usage: create-tool [NAME] [OPTION]...

Scaffold an opencode custom tool: in the folder opencode scans, named as opencode names it, with a
test that passes. In a terminal, create-tool asks for what the options leave out.

Options:
  --dir DIR             project folder (default: the current one); the tool goes in DIR/.opencode/tools,
                        a --plugin package in DIR/NAME
  --global              put the tool in opencode's global config folder instead
                        ($XDG_CONFIG_HOME/opencode/tools, else ~/.config/opencode/tools)
  --plugin              create a publishable npm package whose plugin registers the tools
  --tool-name ID        with --plugin: the tool id its plugin registers (default: the package name
                        without scope and opencode- prefix: opencode-weather -> weather)
  --exports A,B,...     named exports, tool ids NAME_A, NAME_B (default: one default export, id NAME)
  -t, --template NAME   default, python or shell (default: default)
  --js                  JavaScript instead of TypeScript
  --description TEXT    the tool description the model reads (default: the template's)
  --no-test             no test file and no test dependencies
  --force               overwrite existing files, and allow replacing a built-in tool
  --no-interactive      ask nothing; fail on what is missing (also: -y, --yes)
  -h, --help            show this help
  -v, --version         show the version

Templates:
TEMPLATES

Examples:
  npm create tool hello
  npm create tool math -- --exports add,multiply --js
  npm create tool opencode-weather -- --plugin --template python --no-interactive
  npm create tool @me/opencode-forecast -- --plugin --tool-name weather_forecast`

/**
 * `env` is the process environment: `npm create tool NAME --plugin` (without `--`) keeps the options
 * npm does not know for itself, says "Unknown cli config", and passes them on as `npm_config_plugin`
 * and the like. A flag is read as if it had been given after `--`; an option with a value cannot
 * be (npm keeps it as `true` and passes the value on as an argument): a usage error says to use `--`.
 */
export function parseArguments(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): CliArguments {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    throw usageError(error, argv)
  }
  const { positionals } = parsed
  const values = { ...optionsKeptByNpm(env), ...definedValues(parsed.values) } as typeof parsed.values
  if (positionals.length > 1) {
    throw new CreateToolError(
      "USAGE",
      `Unexpected argument ${quoted(positionals[1]!)}: give one NAME. See create-tool --help.`,
    )
  }
  if (values.global && values.plugin) {
    throw new CreateToolError("CONFLICTING_OPTIONS", "--global and --plugin cannot go together: a plugin is a package.")
  }
  if (values["tool-name"] !== undefined && !values.plugin) {
    throw new CreateToolError(
      "CONFLICTING_OPTIONS",
      "--tool-name goes with --plugin only: without it, NAME is the tool name.",
    )
  }
  if (values.global && values.dir !== undefined) {
    throw new CreateToolError("CONFLICTING_OPTIONS", "--global and --dir cannot go together: --global sets the folder.")
  }
  return {
    name: positionals[0],
    dir: values.dir,
    global: values.global ?? false,
    plugin: values.plugin ?? false,
    toolName: values["tool-name"],
    exports: values.exports?.split(",").map((name) => name.trim()),
    template: values.template,
    js: values.js ?? false,
    description: values.description,
    test: !(values["no-test"] ?? false),
    force: values.force ?? false,
    interactive: values["no-interactive"] || values.yes ? false : undefined,
    help: values.help ?? false,
    version: values.version ?? false,
  }
}

// --- internal ---

const options = {
  dir: { type: "string" },
  global: { type: "boolean" },
  plugin: { type: "boolean" },
  "tool-name": { type: "string" },
  exports: { type: "string" },
  template: { type: "string", short: "t" },
  js: { type: "boolean" },
  description: { type: "string" },
  "no-test": { type: "boolean" },
  force: { type: "boolean" },
  "no-interactive": { type: "boolean" },
  yes: { type: "boolean", short: "y" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const satisfies Record<string, { type: "string" | "boolean"; short?: string }>

type OptionName = keyof typeof options

/**
 * The options of create-tool's own that npm takes for config when they come before `--` (its
 * `npm_config_<name>` variables, `-` as `_`). npm's own options (`--global`, `--force`, `--yes`)
 * are npm's: they are not read back.
 */
const KEPT_BY_NPM = ["plugin", "js", "template", "exports", "tool-name", "description"] as const

function optionsKeptByNpm(
  env: Readonly<Record<string, string | undefined>>,
): Partial<Record<OptionName, string | boolean>> {
  if (!/^npm\//.test(env["npm_config_user_agent"] ?? "")) return {}
  const kept: Partial<Record<OptionName, string | boolean>> = {}
  for (const name of KEPT_BY_NPM) {
    const value = env[`npm_config_${name.replaceAll("-", "_")}`]
    if (value === undefined || value === "") continue
    if (options[name].type === "boolean") {
      if (value === "true") kept[name] = true
    } else if (value === "true") {
      throw new CreateToolError(
        "USAGE",
        `npm took --${name} for one of its own options and passed its value on as an argument: put create-tool's options after --, as in npm create tool NAME -- --${name} VALUE.`,
      )
    } else kept[name] = value
  }
  return kept
}

function definedValues<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>
}

function parse(argv: readonly string[]) {
  return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
}

/**
 * parseArgs names only the letter it stopped at (`-r` of `-rf`); the message names what the user
 * typed. The tokens of a lenient parse say which word of argv holds the option at fault.
 */
function usageError(error: unknown, argv: readonly string[]): CreateToolError {
  const code = (error as { code?: string }).code
  const fault = faultyOption(argv, code)
  if (fault === undefined) {
    return new CreateToolError("USAGE", `${printable((error as Error).message)} See create-tool --help.`, {
      cause: error,
    })
  }
  const text =
    fault.kind === "unknown"
      ? unknownOptionText(fault.word)
      : fault.kind === "no-value"
        ? `Option ${fault.option} needs a value: see create-tool --help.`
        : fault.kind === "dash-value"
          ? `Option ${fault.option} needs a value, not the option ${quoted(fault.word)} (for a value that starts with -, write ${fault.option}=VALUE): see create-tool --help.`
          : `Option ${fault.option} takes no value: see create-tool --help.`
  return new CreateToolError("USAGE", text, { cause: error, data: { argument: fault.word } })
}

type Fault = { kind: "unknown" | "no-value" | "dash-value" | "value"; word: string; option: string }

function faultyOption(argv: readonly string[], code: string | undefined): Fault | undefined {
  const { tokens } = parseArgs({ args: [...argv], options, allowPositionals: true, strict: false, tokens: true })
  for (const token of tokens) {
    if (token.kind !== "option") continue
    const word = argv[token.index] ?? token.rawName
    const option = Object.hasOwn(options, token.name) ? options[token.name as OptionName] : undefined
    if (option === undefined) {
      if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return { kind: "unknown", word, option: token.rawName }
      continue
    }
    if (code !== "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") continue
    if (option.type === "boolean" && token.value !== undefined) return { kind: "value", word, option: token.rawName }
    if (option.type === "string" && token.value === undefined) return { kind: "no-value", word, option: token.rawName }
    if (option.type === "string" && !token.inlineValue && token.value?.startsWith("-")) {
      return { kind: "dash-value", word: token.value, option: token.rawName }
    }
  }
  return undefined
}

/** `Unknown option "-rf"`, with the option meant when the word is close to one (`--forse`, `-plugin`). */
function unknownOptionText(word: string): string {
  // Compared without its dashes, so a long option typed with one dash (-plugin) finds its name.
  const name = word.replace(/^-+/, "").split("=")[0]!
  const meant = closestName(name, Object.keys(options))
  const hint = meant === undefined ? "see create-tool --help." : `did you mean --${meant}? See create-tool --help.`
  return `Unknown option ${quoted(word)}: ${hint}`
}
