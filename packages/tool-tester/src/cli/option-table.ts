// The one definition of every command's options: each option's type, short name, placeholder,
// meaning and default. From it come the parseArgs config each command parses with
// (parseConfigOf), its help (command-help.ts), the help test's list and the generated option
// tables of docs/cli.md (scripts/cli-docs.mjs rewrites them; a test fails when they are stale).
// A new command adds one entry to COMMAND_OPTIONS; a new option, one line to its table.
import { definedFields } from "../_defined-fields.ts"
import { PROVIDER_PACKAGES } from "../pipeline/provider-names.ts"

export type OptionSpec = {
  readonly type: "string" | "boolean"
  readonly short?: string
  readonly multiple?: boolean
  /** The word help shows after the flag (`--dir DIR`). */
  readonly placeholder?: string
  /** What the option means, one sentence. */
  readonly help: string
  /** What applies without the option, as help prints it after the meaning (`(default: 200)`). */
  readonly byDefault?: string
}

/** A command's options, in the order its help lists them. */
export type OptionTable = Readonly<Record<string, OptionSpec>>

/** What a command takes besides options (run's `key=value`), shown first in its help. */
export type ArgumentSpec = { readonly name: string; readonly help: string }

const dir = {
  type: "string",
  placeholder: "DIR",
  help: "Project directory",
  byDefault: "the working directory; inside a .opencode folder, its parent",
} as const satisfies OptionSpec
const plugin = {
  type: "string",
  multiple: true,
  placeholder: "SPEC",
  help: "Also load this plugin: a module path, a package folder or a package name (repeatable)",
} as const satisfies OptionSpec
const noGlobal = {
  type: "boolean",
  help: "Leave out the user-level config folders (~/.config/opencode, ~/.opencode)",
} as const satisfies OptionSpec
const provider = {
  type: "string",
  placeholder: "NAME",
  help: `The provider: a name (${Object.keys(PROVIDER_PACKAGES).slice(0, 6).join(", ")}, gemini, bedrock, ...; the matchers take the same) or its npm package`,
  byDefault: "openai-compatible",
} as const satisfies OptionSpec
const model = {
  type: "string",
  placeholder: "ID",
  help: "The model id; with --provider it selects built-ins and schema fixes",
  byDefault: "mock-model",
} as const satisfies OptionSpec
const engine = {
  type: "string",
  placeholder: "E",
  help: "What loads the tools: bun (opencode's runtime), node, or auto; also TOOL_TESTER_ENGINE",
  byDefault: "auto, bun when found, else node",
} as const satisfies OptionSpec
const engineBinary = {
  type: "string",
  placeholder: "PATH",
  help: "The opencode or bun executable for the bun engine: its path, or a command name looked up on PATH; also TOOL_TESTER_ENGINE_BINARY",
} as const satisfies OptionSpec
const verbose = {
  type: "boolean",
  help: "Also print what the opencode server behind plugins' input.client says (started when a plugin first calls it)",
} as const satisfies OptionSpec
const json = {
  type: "boolean",
  help: "Machine-readable output on stdout; failures as one JSON line on stderr",
} as const satisfies OptionSpec
const help = { type: "boolean", short: "h", help: "Show this help" } as const satisfies OptionSpec
const opencode = {
  type: "string",
  placeholder: "PATH",
  help: "The opencode binary to run: its path, or a command name looked up on PATH",
  byDefault: "opencode-ai's platform package from the project or tool-tester, else opencode on PATH",
} as const satisfies OptionSpec
const opencodeVersion = {
  type: "string",
  placeholder: "V",
  help: "Install this opencode version with npm into tool-tester's cache (once, about 180 MB) and run it",
} as const satisfies OptionSpec
const timeout = (meaning: string, byDefault: string) =>
  ({ type: "string", placeholder: "MS", help: meaning, byDefault }) as const satisfies OptionSpec

/** The options of every command that loads a project, in help's order around the command's own. */
const projectOptions = { dir, plugin } as const
const engineOptions = { "no-global": noGlobal, engine, "engine-binary": engineBinary, verbose, json, help } as const

/** Every option of `tool-tester --help` (no command), in its order. */
export const GLOBAL_OPTIONS = {
  dir,
  plugin,
  "no-global": noGlobal,
  provider,
  model,
  engine,
  "engine-binary": engineBinary,
  verbose,
  json,
  help,
  version: { type: "boolean", short: "v", help: "Show the version" },
} as const satisfies OptionTable

export const COMMAND_OPTIONS = {
  list: { ...projectOptions, provider, model, ...engineOptions },
  schema: {
    ...projectOptions,
    tool: {
      type: "string",
      placeholder: "ID",
      help: "Only this tool (exit 1 with TOOL_NOT_FOUND when it is not offered)",
    },
    provider,
    model,
    ...engineOptions,
  },
  run: {
    args: { type: "string", placeholder: "JSON", help: "The arguments as one JSON object" },
    "raw-args": {
      type: "string",
      placeholder: "TEXT",
      help: "The argument text as a model sends it (text that is not JSON is rerouted to invalid)",
    },
    validate: {
      type: "boolean",
      help: "Check the arguments with the tool's zod schema first (opencode 1.18 does not)",
    },
    deny: {
      type: "string",
      multiple: true,
      placeholder: "PERMISSION",
      help: "Add a deny rule (repeatable; --deny task switches the truncation hint)",
    },
    "max-lines": {
      type: "string",
      placeholder: "N",
      help: "Truncation line limit",
      byDefault: "config tool_output, else 2000",
    },
    "max-bytes": {
      type: "string",
      placeholder: "N",
      help: "Truncation byte limit",
      byDefault: "config tool_output, else 51200",
    },
    timeout: timeout("Abort the tool after MS ms, then stop it", "60000"),
    "data-dir": {
      type: "string",
      placeholder: "DIR",
      help: "Where truncated outputs are saved",
      byDefault: "a temporary folder",
    },
    agent: {
      type: "string",
      placeholder: "NAME",
      help: "The agent the call runs for (context.agent), as opencode run --agent",
      byDefault: "default_agent, else build",
    },
    watch: {
      type: "boolean",
      help: "Run the call again on every save of the tool, plugin and config files and of the modules the tools import, until Ctrl-C",
    },
    ...projectOptions,
    provider,
    model,
    "model-input": {
      type: "string",
      placeholder: "LIST",
      help: "What the model takes besides text (its modalities.input): image, audio, video, pdf, comma-separated; changes what it receives of attachments",
      byDefault: "none",
    },
    ...engineOptions,
  },
  doctor: {
    ...projectOptions,
    provider: {
      type: "string",
      placeholder: "NAME",
      help: "The provider whose refusals are errors: a short name (google, anthropic, ...) or npm package",
    },
    model: {
      type: "string",
      placeholder: "ID",
      help: "The model whose provider's refusals are errors (gemini-2.5-pro; with --provider, that provider's model)",
    },
    ...engineOptions,
  },
  fuzz: {
    runs: { type: "string", placeholder: "N", help: "How many calls", byDefault: "200" },
    seed: {
      type: "string",
      placeholder: "S",
      help: "The seed: the same seed replays the same arguments",
      byDefault: "random, printed",
    },
    timeout: timeout("Bound of each call: a call past it is a timeout failure", "5000"),
    ...projectOptions,
    ...engineOptions,
  },
  e2e: {
    script: {
      type: "string",
      placeholder: "FILE",
      help: "The script: the JSON file of the model's turns (required, except with --init)",
    },
    init: {
      type: "boolean",
      help: "Write a starter script instead (to --script FILE, default e2e.json): one call to each tool, example arguments",
    },
    opencode,
    "opencode-version": opencodeVersion,
    config: {
      type: "string",
      placeholder: "JSON",
      help: `opencode config merged over the project's, such as '{"permission":{"task":"deny"}}'`,
    },
    agent: {
      type: "string",
      placeholder: "NAME",
      help: "The agent opencode runs the prompt with (opencode run --agent)",
    },
    timeout: timeout("Bound of the whole opencode run", "90000"),
    "call-timeout": timeout("Bound of each tool call, from when the model asks for it", "none"),
    ...projectOptions,
    model: { ...model, help: "The model id; gemini or gpt- ids change what opencode sends" },
    provider,
    json,
    help,
  },
  eval: {
    init: { type: "boolean", help: "Write one starter case file per tool in .opencode/evals/ (never overwrites)" },
    model: {
      type: "string",
      multiple: true,
      placeholder: "PROVIDER/MODEL",
      help: "A model as opencode names it (repeatable)",
      byDefault: "the project's configured model",
    },
    runs: {
      type: "string",
      placeholder: "N",
      help: "Runs of each case on each model, for cases that do not set `runs`",
      byDefault: "1",
    },
    agent: {
      type: "string",
      placeholder: "NAME",
      help: "The opencode agent to prompt",
      byDefault: "opencode's default agent",
    },
    case: { type: "string", multiple: true, placeholder: "NAME", help: "Only this case (repeatable)" },
    concurrency: { type: "string", placeholder: "N", help: "Trials in flight at once", byDefault: "4" },
    timeout: timeout("Bound of one trial", "120000"),
    threshold: {
      type: "string",
      placeholder: "RATE",
      help: "Exit 8 when a case x model pass rate is below RATE (0.8, 80%)",
    },
    "threshold-on": {
      type: "string",
      placeholder: "point|lower",
      help: "What --threshold compares: the pass rate (point) or its 95% interval's lower bound (lower)",
      byDefault: "point",
    },
    variants: {
      type: "string",
      placeholder: "FILE",
      help: "Also run the cases on each variant of the tools' descriptions in FILE, side by side",
    },
    without: {
      type: "string",
      multiple: true,
      placeholder: "TOOL_ID",
      help: "Also run the cases with this tool not offered to the model (repeatable)",
    },
    html: { type: "string", placeholder: "FILE", help: "Also write the report as one HTML page" },
    history: {
      type: "string",
      placeholder: "FILE",
      help: "The history file",
      byDefault: ".opencode/evals/history.jsonl",
    },
    "no-history": { type: "boolean", help: "Neither read nor add to the history" },
    opencode,
    "opencode-version": {
      ...opencodeVersion,
      help: "Install this opencode version with npm into tool-tester's cache and run it",
    },
    dir,
    json,
    help,
  },
  dev: {
    port: { type: "string", placeholder: "N", help: "Listen on this port", byDefault: "a free one" },
    "no-open": { type: "boolean", help: "Print the URL without opening a browser" },
    timeout: timeout("Abort a call after MS ms, then stop it", "60000"),
    ...projectOptions,
    ...engineOptions,
    json: { ...json, help: "Print {url, port, engine} as one JSON line instead (and error when nothing loaded)" },
  },
  preflight: {
    e2e: {
      type: "boolean",
      help: "Also load the install in the real opencode and call each tool once (as tool-tester e2e)",
    },
    "run-scripts": {
      type: "boolean",
      help: "Run the install scripts of the package and its dependencies",
      byDefault: "npm install --ignore-scripts",
    },
    timeout: timeout("Bound of each tool call", "10000"),
    "npm-timeout": timeout(
      "Bound of the pack (npm, pnpm or yarn pack) and of npm install, each with the scripts it runs",
      "600000",
    ),
    engine,
    "engine-binary": engineBinary,
    json,
    help,
  },
  verify: {
    opencode: {
      type: "string",
      placeholder: "PATH",
      help: "The opencode binary to check against: its path, or a command name looked up on PATH",
      byDefault:
        "as e2e finds it: opencode-ai's platform package from the project or tool-tester, else opencode on PATH",
    },
    concurrency: {
      type: "string",
      placeholder: "N",
      help: "Probe runs at once, and as many again of the runs that may hang opencode (they wait idle)",
      byDefault: "4",
    },
    json: { ...json, help: "The report as one JSON document on stdout (every difference, both texts in full)" },
    help,
  },
} as const satisfies Record<string, OptionTable>

export type CommandName = keyof typeof COMMAND_OPTIONS

/** What each command takes besides options, shown before them in its help. */
export const COMMAND_ARGUMENTS: Partial<Record<CommandName, readonly ArgumentSpec[]>> = {
  run: [
    {
      name: "key=value",
      help: "An argument of the tool (repeatable; values that are JSON arrays or objects are parsed)",
    },
  ],
  verify: [
    {
      name: "SET",
      help: "Only this probe set (repeatable: naming, truncation, zod-types, ...; a wrong name lists them); default: all of them",
    },
  ],
}

/**
 * The node:util parseArgs `options` of a table: its type, short and multiple fields. Typed as the
 * table, so each command's values keep their types.
 */
export function parseConfigOf<T extends OptionTable>(table: T): { [K in keyof T]: ParseDescriptor<T[K]> } {
  const config: Record<string, ParseDescriptor<OptionSpec>> = {}
  for (const [name, option] of Object.entries(table)) {
    config[name] = {
      type: option.type,
      ...definedFields({ short: option.short, multiple: option.multiple }),
    }
  }
  return config as { [K in keyof T]: ParseDescriptor<T[K]> }
}

/** `--dir DIR`, `-h, --help`: an option as help and the docs name it. */
export function optionLabel(name: string, option: OptionSpec): string {
  const flag = `--${name}${option.placeholder === undefined ? "" : ` ${option.placeholder}`}`
  return option.short === undefined ? flag : `-${option.short}, ${flag}`
}

/** An option's meaning with its default, as help and the docs print it. */
export function optionMeaning(option: OptionSpec): string {
  return option.byDefault === undefined ? option.help : `${option.help} (default: ${option.byDefault})`
}

// --- internal ---

type ParseDescriptor<O extends OptionSpec> = Pick<O, Extract<keyof O, "type" | "short" | "multiple">>
