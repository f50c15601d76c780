// What `tool-tester --help` and `tool-tester <command> --help` (or `tool-tester help <command>`)
// print: for each command its usage, every option with its meaning and default, and examples.
// No link here is relative to the repository: once installed, only the package's own files exist.
// The options themselves, with their meanings, come from option-table.ts.
import {
  COMMAND_ARGUMENTS,
  COMMAND_OPTIONS,
  type CommandName,
  GLOBAL_OPTIONS,
  type OptionTable,
  optionLabel,
  optionMeaning,
} from "./option-table.ts"

type CommandHelp = {
  summary: string
  usage: string
  about?: string
  examples: readonly string[]
}

export const COMMAND_NAMES = Object.keys(COMMAND_OPTIONS) as CommandName[]

/** The CLI reference, online: once installed, only the package's own files exist, so a full address. */
const CLI_DOCS_URL = "https://github.com/opencode-tool-kit/opencode-tool-kit/blob/main/docs/cli.md"

/** The footer of a help text: where the docs are, as a link that opens (the command's section, for one command). */
function docsFooter(command?: string): string {
  return `Docs: ${CLI_DOCS_URL}${command === undefined ? "" : `#${command}`} (and README.md in node_modules/@opencode-ai/tool-tester)`
}

const COMMANDS: Record<CommandName, CommandHelp> = {
  list: {
    summary: "The tools opencode would offer, in its order",
    usage: "tool-tester list [--dir DIR] [--plugin SPEC]... [--provider NAME] [--model ID] [--no-global] [--json]",
    about: "Built-in, file and plugin tools, as opencode lists them for that model. Exit 3 when a file failed to load.",
    examples: ["tool-tester list", "tool-tester list --provider openai --model gpt-5 --json"],
  },
  schema: {
    summary: "The custom and plugin tools exactly as the provider receives them",
    usage:
      "tool-tester schema [--dir DIR] [--plugin SPEC]... [--tool ID] [--provider NAME] [--model ID] [--no-global] [--json]",
    about: "The JSON Schema of each custom and plugin tool after opencode's conversion and the provider's fixes.",
    examples: ["tool-tester schema --tool weather", "tool-tester schema --provider google --model gemini-2.5-pro"],
  },
  run: {
    summary: "Run one tool; prints exactly what the model would read",
    usage: "tool-tester run NAME [key=value ...] [--args JSON | --raw-args TEXT] [options]",
    about:
      "Arguments in one form: key=value pairs (read with the tool's schema: n=5 is a number where it says number),\n" +
      "--args JSON, or --raw-args TEXT. A tool's own argument is never an option: write city=Paris, not --city Paris.\n" +
      "An unknown NAME is rerouted to opencode's invalid tool, as for a model's call (exit 6).",
    examples: [
      "tool-tester run weather city=Paris",
      `tool-tester run weather --args '{"city":"Paris","days":3}' --json`,
      "tool-tester run weather --raw-args '{not json'",
    ],
  },
  doctor: {
    summary: "Why a tool will not work in opencode, one line per finding",
    usage: "tool-tester doctor [--dir DIR] [--plugin SPEC]... [--provider NAME] [--model ID] [--no-global] [--json]",
    about:
      "Checks names, schemas, exports and what each provider would refuse. Exit 3 when a finding is an error.\nA provider's refusal is an error for the providers of the models opencode.json names (all, when it names none), a warning for the others; --provider/--model name the one to check instead.",
    examples: ["tool-tester doctor", "tool-tester doctor --provider google --json"],
  },
  fuzz: {
    summary: "Call a tool with generated arguments, as models send them, and report what breaks it",
    usage: "tool-tester fuzz NAME [--runs N] [--seed S] [--timeout MS] [--dir DIR] [--plugin SPEC]... [--json]",
    about:
      "Arguments come from the tool's JSON Schema: valid ones, and what models send that opencode passes on\n" +
      "unchecked (missing keys, wrong types, numbers as strings, extra keys, {}, empty, huge and unicode strings).\n" +
      "A failure is a TypeError/ReferenceError/RangeError (a bug the input reached), a result opencode cannot send,\n" +
      "a timeout, or a tool that ends the process; an Error the tool throws on purpose is not. Each distinct failure\n" +
      "is shown with the smallest arguments that cause it and the run command that calls it with them again.\n" +
      "Exit 4 when one is found.",
    examples: ["tool-tester fuzz weather", "tool-tester fuzz weather --runs 1000 --seed 42 --json"],
  },
  e2e: {
    summary: "Drive the real opencode binary with a scripted mock model",
    usage:
      "tool-tester e2e (--script SCRIPT.json | --init) [--dir DIR] [--plugin SPEC]... [--opencode PATH | --opencode-version V]\n" +
      "                [--model ID] [--provider NAME] [--config JSON] [--agent NAME] [--timeout MS] [--call-timeout MS] [--json]",
    about:
      "Runs `opencode run` offline in a copy of the project; a mock model plays the script's turns and the\n" +
      "report shows what opencode offered, ran and returned. The script is JSON, the model's turns:\n" +
      '  {"prompt": "use the tools", "turns": [\n' +
      '    {"calls": [{"tool": "weather", "args": {"city": "Paris"}}]},\n' +
      '    {"calls": [{"tool": "weather", "rawArgs": "{not json"}]},\n' +
      '    {"text": "done"}\n' +
      "  ]}\n" +
      "A turn has `calls` (sent as one parallel batch), `text`, or both; a call has `tool` and `args` (an object)\n" +
      "or `rawArgs` (text sent as it is), and an optional `id`. A bare list of turns works too.",
    examples: [
      "tool-tester e2e --init",
      "tool-tester e2e --script weather.e2e.json",
      "tool-tester e2e --script weather.e2e.json --opencode-version 1.18.34 --provider openai --json",
    ],
  },
  eval: {
    summary: "Does the model pick your tool, with the right arguments, inside opencode? Cases graded over runs",
    usage:
      "tool-tester eval [--dir DIR] [--model PROVIDER/MODEL]... [--runs N] [--agent NAME] [--case NAME]... [--concurrency N]\n" +
      "                 [--timeout MS] [--threshold RATE [--threshold-on point|lower]] [--variants FILE] [--without TOOL_ID]... [--html FILE] [--history FILE | --no-history] [--json]\n" +
      "tool-tester eval --init [--dir DIR]",
    about:
      "Sends each case's prompt (.opencode/evals/*.json, or a .ts/.js file exporting the cases) to the real opencode,\n" +
      "started once with your own providers and keys, and grades the tool calls the model makes against the case.\n" +
      "Your tools are not run unless a case says so (`execute`): a call is answered with the case's `results`.\n" +
      "bash, edit, external_directory, doom_loop and question are denied through opencode's permission config.\n" +
      "Each run is added to the history (.opencode/evals/history.jsonl) and compared with the previous run of each\n" +
      "case and model. Exit 0, or 8 when a case x model pass rate is below --threshold, 1 when a case file or model\n" +
      "is wrong, 3 when a plugin file fails to load (or, with --init, a tool file), 130 on Ctrl-C.",
    examples: [
      "tool-tester eval --init",
      "tool-tester eval",
      "tool-tester eval --model anthropic/claude-sonnet-4-5 --model openai/gpt-5 --runs 5 --html evals.html",
      "tool-tester eval --runs 3 --threshold 0.8 --json",
    ],
  },
  dev: {
    summary: "A live inspector in the browser: the tools, a form per tool, the model's view; reloads on save",
    usage:
      "tool-tester dev [--dir DIR] [--plugin SPEC]... [--port N] [--no-open] [--timeout MS] [--no-global] [--json]",
    about:
      "Serves a page on 127.0.0.1 and prints its URL, with a token made at each start that every request needs.\n" +
      "It lists the tools as opencode offers them, with doctor's findings; builds a form from each schema (or takes\n" +
      "JSON or a model's raw text); shows each provider's schema side by side; and runs calls as run does, with a\n" +
      "history to replay. On every save it reloads the tools and runs the last call of each open page again. Ctrl-C stops it.",
    examples: ["tool-tester dev", "tool-tester dev --dir . --port 4983 --no-open"],
  },
  preflight: {
    summary: "Check a plugin package as its publish packs it and opencode installs and loads it",
    usage: "tool-tester preflight [DIR] [--e2e] [--run-scripts] [--timeout MS] [--npm-timeout MS] [--json]",
    about:
      "Packs the package in DIR (default: the working directory) as its publish would: with pnpm or yarn 2+\n" +
      "when its lock file or packageManager says so (they apply publishConfig), or for workspace: and catalog:\n" +
      "versions, else npm. Checks the tarball (the entry opencode reads, a build older than its sources, runtime\n" +
      "dependencies, engines.opencode, publint, arethetypeswrong), installs it with npm into a fresh opencode\n" +
      "project that names it in opencode.json, loads it by name from there and calls each tool once with\n" +
      "arguments that fit its schema. Exit 3 when a finding is an error. Run it in prepublishOnly.",
    examples: ["tool-tester preflight", "tool-tester preflight packages/opencode-weather --e2e --json"],
  },
  verify: {
    summary: "Check tool-tester against your own opencode binary",
    usage: "tool-tester verify [SET...] [--opencode PATH] [--concurrency N] [--json]",
    about:
      "Runs the probe projects shipped with tool-tester (tool files, plugins, config layouts, scripted calls; the\n" +
      "ones behind its conformance tests) through your opencode with a scripted mock model, offline, and through\n" +
      "tool-tester, and reports per behaviour (discovery, naming, order, schemas, results, truncation, rerouting,\n" +
      "plugin hooks) whether they agree, with the two texts of each difference. SET limits it to those probe sets.\n" +
      "Exit 0 when all agree, 9 when something differs, 10 when a probe run could not be compared. A few minutes on\n" +
      "two cores.",
    examples: ["tool-tester verify", "tool-tester verify naming truncation --opencode ~/.opencode/bin/opencode --json"],
  },
}

/** `tool-tester --help`. */
export function globalHelp(): string {
  const width = Math.max(...COMMAND_NAMES.map((name) => name.length))
  const commands = COMMAND_NAMES.map((name) => `  ${name.padEnd(width)}  ${COMMANDS[name].summary}`).join("\n")
  return `Usage: tool-tester <command> [options]

Run opencode custom tools through opencode's own tool pipeline, without a model.

Commands:
${commands}

Usage:
${COMMAND_NAMES.map((name) => `  ${COMMANDS[name].usage.split("\n").join("\n  ")}`).join("\n")}
  tool-tester help <command>   (or tool-tester <command> --help): every option of that command, with examples

Options:
${formatOptions(rowsOf(GLOBAL_OPTIONS))}

Exit codes:
  0 ran and completed    1 usage (also: no engine, Node too old)    2 arguments failed validation
  3 a file failed to load or the tool list would break    4 the tool threw or returned something opencode cannot send
  5 timeout    6 the call was rerouted to invalid    7 a package fuzz, preflight or dev needs is not installed
  8 eval: a case x model pass rate is below --threshold    9 verify: tool-tester and your opencode differ
  10 verify: a probe run could not be compared    130 interrupted (Ctrl-C; SIGTERM 143, SIGHUP 129)

${docsFooter()}`
}

/**
 * `tool-tester <command> --help`, or undefined for a name that is not a command. The examples start
 * with `run`, the words that run this bin from where the user is (invocation.ts), so they paste.
 */
export function commandHelp(name: string, run = "tool-tester"): string | undefined {
  // An own entry only: `help constructor` names no command, whatever objects inherit.
  if (!Object.hasOwn(COMMANDS, name)) return undefined
  const command = (COMMANDS as Record<string, CommandHelp>)[name]!
  const rows = [
    ...(COMMAND_ARGUMENTS[name as CommandName] ?? []).map((argument) => [argument.name, argument.help] as const),
    ...rowsOf(COMMAND_OPTIONS[name as CommandName]),
  ]
  return `Usage: ${command.usage}

${command.summary}.${command.about ? `\n${command.about}` : ""}

Options:
${formatOptions(rows)}

Examples:
${command.examples.map((example) => `  ${example.replace(/^tool-tester(?= )/, run)}`).join("\n")}

${docsFooter(name)}`
}

// --- internal ---

type OptionRow = readonly [label: string, meaning: string]

function rowsOf(table: OptionTable): OptionRow[] {
  return Object.entries(table).map(([name, option]) => [optionLabel(name, option), optionMeaning(option)] as const)
}

function formatOptions(options: readonly OptionRow[]): string {
  const width = Math.max(...options.map(([flag]) => flag.length)) + 2
  return options.map(([flag, meaning]) => `  ${flag.padEnd(width)}${meaning}`).join("\n")
}
