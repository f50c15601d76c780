// What a user's test can write about a call's result under `tsc --strict`: the status tells a
// failed call from a completed one, so `result.error` needs no `?.` or `!` once the status is checked,
// and `title` and `metadata` are typed as what that status holds (null for a failed call).
import { expectTypeOf, test } from "vitest"
import type { RunResult, ToolTesterErrorCode } from "../../src/index.ts"

test("status narrows error: there after status === 'error', undefined after 'completed'", () => {
  const code = (result: RunResult) => (result.status === "error" ? result.error.code : undefined)
  expectTypeOf(code).returns.toEqualTypeOf<ToolTesterErrorCode | undefined>()
  expectTypeOf<Extract<RunResult, { status: "completed" }>["error"]>().toEqualTypeOf<undefined>()
  expectTypeOf<Extract<RunResult, { status: "error" }>["error"]["message"]>().toEqualTypeOf<string>()
})

test("status narrows title and metadata: null after 'error', a string and an object after 'completed'", () => {
  const part = (result: RunResult) =>
    result.status === "completed" ? { title: result.title, truncated: result.metadata["truncated"] } : undefined
  expectTypeOf(part).returns.toEqualTypeOf<{ title: string; truncated: unknown } | undefined>()
  expectTypeOf<Extract<RunResult, { status: "error" }>["title"]>().toEqualTypeOf<null>()
  expectTypeOf<Extract<RunResult, { status: "error" }>["metadata"]>().toEqualTypeOf<null>()
  expectTypeOf<Extract<RunResult, { status: "completed" }>["metadata"]>().toEqualTypeOf<Record<string, unknown>>()
})
