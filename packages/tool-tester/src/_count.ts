/** A number with its noun, in the plural unless it is one: `1 file`, `2 files`, `0 files`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`
}
