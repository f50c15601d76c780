// Types of _args.mjs, for the TypeScript benches (packages/*/bench).
import type { ParseArgsOptionsConfig, parseArgs } from "node:util"

type Parsed<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ options: O; strict: true; allowPositionals: true }>
>

export declare function benchArgs<const O extends ParseArgsOptionsConfig>(
  scriptUrl: string,
  options: O,
  settings?: { positionals?: boolean },
): {
  values: Parsed<O>["values"]
  positionals: string[]
  /** The option's value as a whole number above 0, or a one-line error and exit 2. */
  count: (option: keyof O & string) => number
  /** A one-line error naming the script, and exit 2. */
  fail: (message: string) => never
}
