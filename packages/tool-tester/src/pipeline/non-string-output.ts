// What opencode's truncation does with an `output` that is not a string
// (docs/opencode-contract.md#bad-results, observed on 1.18.34): it calls `output.split("\n")`, then
// measures `output` with `Buffer.byteLength`. Either fails the call, and the model reads the error.
import { Buffer } from "node:buffer"
import { bunValueText } from "./bun-value-text.ts"

type NonStringOutput =
  /** The call fails: the model reads `modelText`. */
  | { fails: true; modelText: string }
  /** `Buffer.byteLength` measured it (a typed array with a `split` method): opencode goes on with it. */
  | { fails: false }

/**
 * The text the model reads for a non-string `output`: `undefined is not an object (evaluating
 * 'c.split')` for null and undefined, `c.split is not a function. (...)` when it has no `split`
 * method (a number, an array, a plain object), and when it has one (a `new String("x")`, an object
 * with a `split` method), `Buffer.byteLength`'s TypeError (`... Received an instance of String`).
 * Runs the value's own `split` as opencode does: what it throws, the caller reports as a throw.
 */
export function nonStringOutput(output: unknown): NonStringOutput {
  if (output === undefined || output === null)
    return { fails: true, modelText: `${output} is not an object (evaluating 'c.split')` }
  const split = (output as { split?: unknown }).split
  if (typeof split !== "function") {
    return {
      fails: true,
      modelText: `c.split is not a function. (In 'c.split(\`\n\`)', 'c.split' is ${bunValueText(split)})`,
    }
  }
  Reflect.apply(split, output, ["\n"])
  try {
    // The engine's own words: Bun's are opencode's; Node's are the same but for a null prototype.
    Buffer.byteLength(output as string, "utf8")
  } catch (error) {
    return { fails: true, modelText: error instanceof Error ? error.message : String(error) }
  }
  return { fails: false }
}
