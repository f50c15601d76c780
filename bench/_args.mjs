// A bench script's command line: node's parseArgs with the script's own options, plus `--help`,
// which prints the script's opening comment (how to run it, what it measures, its targets), and a
// one-line error with exit 2 for an option the script does not take or a value it cannot use, where
// parseArgs alone would throw a stack trace and `Number()` would let "abc" through as NaN.
import { readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"

/**
 * Parses this process's arguments for the script at `scriptUrl` (its import.meta.url).
 * @param {string} scriptUrl
 * @param {import("node:util").ParseArgsConfig["options"]} options
 * @param {{ positionals?: boolean }} [settings] whether it takes positionals (after `--` too)
 */
export function benchArgs(scriptUrl, options, settings = {}) {
  const script = fileURLToPath(scriptUrl)
  const name = path.basename(script).replace(/\.[cm]?[jt]s$/, "")
  const args = process.argv.slice(2)
  const own = args.includes("--") ? args.slice(0, args.indexOf("--")) : args
  if (own.includes("--help") || own.includes("-h")) {
    process.stdout.write(openingComment(script))
    process.exit(0)
  }
  /** @param {string} message */
  const fail = (message) => {
    console.error(`${name}: ${message}`)
    process.exit(2)
  }
  let parsed
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: settings.positionals ?? false })
  } catch (error) {
    // Node's first sentence names the option ("Unknown option '--x'"); the rest is about positionals.
    const said = error instanceof Error ? error.message : String(error)
    fail(`${said.split(/\.\s/)[0]}; --help lists what it takes`)
  }
  /** @param {string} option */
  const count = (option) => {
    const text = parsed.values[option]
    const value = Number(text)
    if (typeof text !== "string" || !/^\d+$/.test(text.trim()) || value < 1)
      fail(`--${option} takes a whole number above 0, not ${JSON.stringify(text ?? null)}`)
    return value
  }
  return { values: parsed.values, positionals: parsed.positionals, count, fail }
}

/** The script's opening `//` comment, without the slashes. */
function openingComment(script) {
  const lines = []
  for (const line of readFileSync(script, "utf8").split(/\r?\n/)) {
    if (!line.startsWith("//")) break
    lines.push(line.replace(/^\/\/ ?/, ""))
  }
  return `${lines.join("\n")}\n`
}
