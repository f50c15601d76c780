// The arguments of a preflight smoke call: one sample of what fits the tool's JSON Schema (as
// opencode sends it), with a fixed seed, so the same package gets the same call every time.
import { loadFastCheck } from "../fuzz/_fast-check.ts"
import { validArguments } from "../fuzz/valid-arguments.ts"

const SMOKE_SEED = 16

export async function smokeArguments(parameters: unknown, seed = SMOKE_SEED): Promise<unknown> {
  const fc = await loadFastCheck()
  const [sample] = fc.sample(validArguments(parameters), { seed, numRuns: 1 })
  return sample ?? {}
}
