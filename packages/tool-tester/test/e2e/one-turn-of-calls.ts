// One turn of calls in the real opencode, then "done": what the e2e tests of a project's
// surroundings (a monorepo package, imports above it, outside git) compare with list and run.
import { runE2E } from "../../src/e2e/run-e2e.ts"
import type { E2EResult } from "../../src/e2e/index.ts"
import { opencode } from "../helpers.ts"

export type OneTurn = {
  result: E2EResult
  /** The tools opencode offered, by name. */
  offered: string[]
  /** Each call's tool and the text it returned, in order. */
  results: Array<[string | null, string | null]>
}

/** Runs `calls` (tool and arguments) as one turn in the real opencode started in `directory`. */
export async function oneTurnOfCalls(
  directory: string,
  calls: Array<[string, Record<string, unknown>]>,
): Promise<OneTurn> {
  const result = await runE2E({
    directory,
    opencode: opencode.binary!,
    timeoutMs: 240_000,
    script: { turns: [{ calls: calls.map(([tool, args]) => ({ tool, args })) }, { text: "done" }] },
  })
  const offered = (result.tools ?? []).map((tool) => (tool as { function: { name: string } }).function.name)
  return { result, offered, results: result.calls.map((call) => [call.tool, call.result]) }
}
