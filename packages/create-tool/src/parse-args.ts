import { helpCommand } from "./invocation.ts"
import { parseArgs } from "node:util"
import { closestMatch } from "./did-you-mean.ts"
import { shellWord } from "./_shell-quote.ts"
import { CreateToolError } from "./errors.ts"
import { npmConfigSource } from "./npm-config.ts"
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
  /**
   * Options of create-tool's that npm's config sets (`force=true` in ~/.npmrc), which are not taken
   * as typed: one line each saying so, for stderr where the option would change the run.
   */
  npmConfigNotes: Array<{ option: "force" | "other"; text: string }>
}

export const helpMessage = `Usage: create-tool [NAME] [OPTION]...

Scaffold an opencode custom tool: in the folder opencode scans, named as opencode names it, with a
test that passes. In a terminal, create-tool asks for what the options leave out.

Options:
  --dir DIR             project folder (default: the current one, or inside a .opencode folder the
                        project it belongs to); the tool goes in DIR/.opencode/tools, a --plugin
                        package in DIR/NAME
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
 * it does not know for itself, says "Unknown cli config", and passes them on as `npm_config_plugin`
 * and the like (`--no-test` as `npm_config_test=`, `--js` expanded to `--json`). Those are read as
 * if given after `--`; an option with a value cannot be when npm kept it as `true` and passed its
 * value on as an argument: a usage error then shows the `--` form. npm passes its config on the
 * same way (`force=true` in ~/.npmrc as `npm_config_force`): a variable whose key an npmrc file or
 * the environment sets (npm-config.ts) is not read, since it may be no flag typed now, and
 * `npmConfigNotes` shows the `--` form instead.
 */
export function parseArguments(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): CliArguments {
  const args = withEqualsSplit(withoutSeparator(argv))
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(args)
  } catch (error) {
    throw usageError(error, args, env)
  }
  const { positionals } = parsed
  const fromNpm = optionsKeptByNpm(env)
  const values = { ...fromNpm.kept, ...definedValues(parsed.values) } as typeof parsed.values
  const npmConfigNotes = fromNpm.fromConfig
    .filter(({ option }) => parsed.values[option] === undefined)
    .map((ignored) => ({
      option: ignored.option === "force" ? ("force" as const) : ("other" as const),
      text: npmConfigNote(ignored, positionals[0]),
    }))
  if (positionals.length > 1) {
    // Under npm, a value whose option npm took for one of its own (`--description Hi`: npm has a
    // `description` setting) arrives as an argument of its own, with no trace of the option.
    const hint = startedByNpm(env)
      ? ` If it is the value of an option, npm took that option for one of its own: put create-tool's options after --, as in npm create tool NAME -- --description ${quoted(positionals[1]!)}.`
      : ` See ${helpCommand(env)}.`
    throw new CreateToolError("USAGE", `Unexpected argument ${quoted(positionals[1]!)}: give one NAME.${hint}`)
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
    npmConfigNotes,
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
 * Where npm puts each option given before `--`: its `npm_config_<name>` variable (`-` as `_`), as
 * npm 11 passes them on. `--js` is expanded by npm to its own `--json`; `-t` stays `t`; `--no-test`
 * and `--no-interactive` arrive as an empty value. `--yes` and `-y` are npm's own (they answer
 * npx's "Ok to proceed?"), `-h` and `-v` print npm's help and version: none reaches create-tool.
 * `purpose` completes the line that says npm's config set the option instead (npmConfigNote).
 */
const KEPT_BY_NPM: ReadonlyArray<{ option: OptionName; variables: readonly string[]; typed: string; purpose: string }> =
  [
    { option: "plugin", variables: ["plugin"], typed: "--plugin", purpose: "for a plugin package" },
    { option: "js", variables: ["json", "js"], typed: "--js", purpose: "for JavaScript" },
    { option: "global", variables: ["global"], typed: "--global", purpose: "for the global folder" },
    { option: "force", variables: ["force"], typed: "--force", purpose: "to overwrite" },
    { option: "no-test", variables: ["test"], typed: "--no-test", purpose: "for no test" },
    { option: "no-interactive", variables: ["interactive"], typed: "--no-interactive", purpose: "to ask nothing" },
    { option: "dir", variables: ["dir"], typed: "--dir", purpose: "to give it" },
    { option: "template", variables: ["template", "t"], typed: "--template", purpose: "to give it" },
    { option: "exports", variables: ["exports"], typed: "--exports", purpose: "to give it" },
    { option: "tool-name", variables: ["tool_name"], typed: "--tool-name", purpose: "to give it" },
  ]

function startedByNpm(env: Readonly<Record<string, string | undefined>>): boolean {
  return /^npm\//.test(env["npm_config_user_agent"] ?? "")
}

/** An option npm passed on from its config, not its command line (npm-config.ts), so not taken. */
type FromNpmConfig = { option: OptionName; variable: string; typed: string; purpose: string; source: string }

function optionsKeptByNpm(env: Readonly<Record<string, string | undefined>>): {
  kept: Partial<Record<OptionName, string | boolean>>
  fromConfig: FromNpmConfig[]
} {
  const kept: Partial<Record<OptionName, string | boolean>> = {}
  const fromConfig: FromNpmConfig[] = []
  if (!startedByNpm(env)) return { kept, fromConfig }
  for (const { option, variables, typed, purpose } of KEPT_BY_NPM) {
    for (const variable of variables) {
      const value = env[`npm_config_${variable}`]
      if (value === undefined) continue
      let taken: string | boolean | undefined
      if (option === "no-test" || option === "no-interactive") {
        // `--no-test` is npm's `test=false`, passed on empty; `--test` is create-tool's default.
        if (value === "" || value === "false") taken = true
      } else if (options[option].type === "boolean") {
        if (value === "true") taken = true
      } else if (value !== "") taken = value
      if (taken === undefined) continue
      const source = npmConfigSource(variable, env)
      if (source !== undefined) {
        fromConfig.push({ option, variable, typed, purpose, source })
        continue
      }
      if (taken === "true" && options[option].type === "string") {
        const shown = variable === "t" ? "-t" : typed
        throw new CreateToolError(
          "USAGE",
          `npm took ${shown} for one of its own options and passed its value on as an argument: put create-tool's options after --, as in npm create tool NAME -- ${shown} VALUE.`,
        )
      }
      kept[option] = taken
    }
  }
  const mistyped = mistypedForNpm(env)
  if (mistyped !== undefined) {
    throw new CreateToolError(
      "USAGE",
      `npm took --${mistyped.typed} for a setting of its own ("Unknown cli config") and create-tool never saw it: did you mean ${mistyped.meant}? Put create-tool's options after --, as in npm create tool NAME -- ${mistyped.meant}.`,
      { data: { argument: `--${mistyped.typed}`, suggestion: mistyped.meant } },
    )
  }
  return { kept, fromConfig }
}

/**
 * The line that says an option of npm's config was not taken as create-tool's, and the form that
 * is: after `--`, which npm passes on as typed whatever its config says.
 */
function npmConfigNote(ignored: FromNpmConfig, name: string | undefined): string {
  const value = options[ignored.option].type === "string" ? " VALUE" : ""
  const command = `npm create tool ${name === undefined ? "NAME" : shellWord(name)} -- ${ignored.typed}${value}`
  return `npm's config sets ${ignored.variable} (${ignored.source}): create-tool does not take that as ${ignored.typed}; ${ignored.purpose}, pass it after --: ${command}`
}

/**
 * An option npm kept for itself that is one typo from one of create-tool's (`--plugn`, `--no-tests`):
 * npm passes it on as `npm_config_plugn`, and without this create-tool would go on without it.
 * npm's own settings (`npm_config_cache`, `npm_config_yes`, a user's `.npmrc`) are far from every
 * name below, and one that is exactly a name below is read as that option (KEPT_BY_NPM) or is npm's.
 */
function mistypedForNpm(
  env: Readonly<Record<string, string | undefined>>,
): { typed: string; meant: string } | undefined {
  const names = new Map<string, string>([
    ...KEPT_BY_NPM.flatMap(({ variables, typed }) =>
      variables
        .filter((variable) => variable.length > 2)
        .map((variable) => [variable.replaceAll("_", "-"), typed] as const),
    ),
    ["description", "--description"],
  ])
  for (const [key, value] of Object.entries(env)) {
    if (!key.startsWith("npm_config_") || value === undefined) continue
    const name = key.slice("npm_config_".length).replaceAll("_", "-")
    if (names.has(name)) continue
    const match = closestMatch(name, names.keys())
    // A key of the user's npmrc or environment (npm passes those on too) is no option typed now.
    if (match === undefined || npmConfigSource(key.slice("npm_config_".length), env) !== undefined) continue
    // `--no-tests` arrives as `tests` with an empty value, as `--no-test` does.
    const meant = names.get(match)!
    const negated = (value === "" || value === "false") && meant.startsWith("--no-")
    return { typed: negated ? `no-${name}` : name, meant }
  }
  return undefined
}

function definedValues<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>
}

function parse(argv: readonly string[]) {
  return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
}

/**
 * argv without its first `--`: npm keeps it for itself (`npm create tool NAME -- --plugin`), but
 * pnpm, yarn 2+ and bun pass it on, and after it parseArgs would read `--plugin` as a second NAME.
 * Nothing create-tool takes needs it: a NAME never starts with a dash.
 */
/**
 * `-t=shell` as `-t shell`: npm reads it so (the table in docs/scaffolding.md), and node:util's
 * parser would take `=shell` for the value, an unknown template, after `--` or under pnpm, yarn or bun.
 */
function withEqualsSplit(argv: readonly string[]): string[] {
  return argv.flatMap((word) => (/^-t=/.test(word) ? ["-t", word.slice(3)] : [word]))
}

function withoutSeparator(argv: readonly string[]): string[] {
  const at = argv.indexOf("--")
  return at === -1 ? [...argv] : [...argv.slice(0, at), ...argv.slice(at + 1)]
}

/**
 * parseArgs names only the letter it stopped at (`-r` of `-rf`); the message names what the user
 * typed. The tokens of a lenient parse say which word of argv holds the option at fault.
 */
function usageError(
  error: unknown,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CreateToolError {
  const help = helpCommand(env)
  const code = (error as { code?: string }).code
  const fault = faultyOption(argv, code)
  if (fault === undefined) {
    return new CreateToolError("USAGE", `${printable((error as Error).message)} See ${help}.`, {
      cause: error,
    })
  }
  const text =
    fault.kind === "unknown"
      ? unknownOptionText(fault.word, help)
      : fault.kind === "no-value"
        ? `Option ${fault.option} needs a value: see ${help}.`
        : fault.kind === "dash-value"
          ? `Option ${fault.option} needs a value, not the option ${quoted(fault.word)} (for a value that starts with -, write ${fault.option}=VALUE): see ${help}.`
          : `Option ${fault.option} takes no value: see ${help}.`
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
function unknownOptionText(word: string, help: string): string {
  // Compared without its dashes, so a long option typed with one dash (-plugin) finds its name.
  const name = word.replace(/^-+/, "").split("=")[0]!
  const meant = closestMatch(name, Object.keys(options))
  const hint = meant === undefined ? `see ${help}.` : `did you mean --${meant}? See ${help}.`
  return `Unknown option ${quoted(word)}: ${hint}`
}
