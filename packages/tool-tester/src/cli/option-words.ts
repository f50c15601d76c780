// The words of a command line that can be options: those before the first `--`. After it every
// word is a positional (a tool's name, a key=value pair), as node:util parseArgs reads it, so
// `run greet -- --json` asks for no JSON and `fuzz -- -h` for no help: a check that reads argv
// before the command parses it looks only here, to agree with the parser.

/** The words before the first `--` (all of them when there is none). */
export function optionWords(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf("--")
  return end === -1 ? argv : argv.slice(0, end)
}
