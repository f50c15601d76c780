import { shellWord } from "../_shell-quote.ts"

/**
 * The options given beside an `--init` that the init itself does not use, as words to add to the
 * command it prints next: `eval --init --model a/b --runs 3` writes starter cases and prints the
 * `eval --model a/b --runs 3` that runs them, instead of dropping the flags without a word.
 */
export function carriedFlags(values: Record<string, unknown>, used: readonly string[]): string {
  const words: string[] = []
  for (const [name, value] of Object.entries(values)) {
    if (used.includes(name) || value === undefined || value === false) continue
    for (const one of Array.isArray(value) ? value : [value]) {
      words.push(`--${name}`)
      if (one !== true) words.push(String(one))
    }
  }
  return words.map((word) => ` ${shellWord(word)}`).join("")
}
