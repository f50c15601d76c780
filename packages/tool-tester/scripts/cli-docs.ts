// Rewrites the option tables of docs/cli.md from the CLI's one option table
// (src/cli/option-table.ts): each block between `<!-- options:COMMAND -->` and
// `<!-- /options:COMMAND -->` becomes that command's options, as its --help lists them.
// Run `pnpm --filter @opencode-ai/tool-tester docs:cli` after changing an option;
// test/cli/cli-docs-current.test.ts fails while docs/cli.md is stale. It also rewrites the probe
// counts the text states (scripts/probe-counts.ts), from the probe sets.
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import {
  COMMAND_ARGUMENTS,
  COMMAND_OPTIONS,
  type CommandName,
  optionLabel,
  optionMeaning,
} from "../src/cli/option-table.ts"
import { readProbeSets } from "../src/verify/probe-set.ts"
import { withProbeCounts } from "./probe-counts.ts"

export const CLI_DOCS = fileURLToPath(new URL("../../../docs/cli.md", import.meta.url))

/** `text` (docs/cli.md) with every marked block rewritten; a marker for no command throws. */
export function withOptionTables(text: string): string {
  return text.replace(
    /(<!-- options:([\w-]+) -->\n)[\s\S]*?(<!-- \/options:\2 -->)/g,
    (_block, open: string, command: string, close: string) => `${open}${optionTable(command)}${close}`,
  )
}

/** The commands docs/cli.md has a block for. */
export function documentedCommands(text: string): string[] {
  return [...text.matchAll(/<!-- options:([\w-]+) -->/g)].map((match) => match[1]!)
}

function optionTable(command: string): string {
  if (!(command in COMMAND_OPTIONS)) throw new Error(`docs/cli.md names options of "${command}", which is no command`)
  const name = command as CommandName
  const rows = [
    ...(COMMAND_ARGUMENTS[name] ?? []).map((argument) => [`\`${argument.name}\``, argument.help]),
    ...Object.entries(COMMAND_OPTIONS[name]).map(([option, spec]) => [
      `\`${optionLabel(option, spec)}\``,
      optionMeaning(spec),
    ]),
  ]
  const cell = (text: string) => text.replaceAll("|", "\\|")
  const lines = rows.map(([label, meaning]) => `| ${cell(label!)} | ${cell(meaning!)} |`)
  return ["| option | meaning |", "| --- | --- |", ...lines, ""].join("\n")
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const before = readFileSync(CLI_DOCS, "utf8")
  const after = withProbeCounts(withOptionTables(before), readProbeSets())
  if (after !== before) writeFileSync(CLI_DOCS, after)
  console.log(after === before ? "docs/cli.md is current" : "docs/cli.md: option tables and probe counts rewritten")
}
