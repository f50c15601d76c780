// What a save runs again when several pages are open on one `dev`: the last call of each page that
// is open (each shows its own results), not only the last call of all; a page that closed gets
// nothing run for it; a call that names no page (a script using the API) is run again while it is
// the last call. Without a browser, so it runs where chromium is absent.
import { expect, test } from "vitest"
import type { HistoryEntry } from "../../src/inspector/session.ts"
import { startedSession } from "./_inspector.ts"

const echo = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Echoes its text",
  args: { text: tool.schema.string() },
  async execute(args) { return args.text },
})
`

const say = (text: string) => ({ name: "echo", form: "args" as const, args: { text } })
/** The re-runs a save made: which call each runs again, and what it returned. */
const rerunsIn = (history: HistoryEntry[], after: number) =>
  history
    .filter((entry) => entry.trigger === "reload" && entry.id > after)
    .map((entry) => ({ reruns: entry.reruns, output: entry.result?.output }))
    .sort((a, b) => (a.reruns ?? 0) - (b.reruns ?? 0))

test("a save re-runs the last call of each open page, and none of a closed page", { timeout: 120_000 }, async () => {
  const { session } = await startedSession({ ".opencode/tools/echo.ts": echo })
  const closeA = session.subscribe(() => {}, "page-a")
  const closeB = session.subscribe(() => {}, "page-b")
  // A second connection of page b (a reconnect that overlaps the old one) keeps it open when one ends.
  const closeB2 = session.subscribe(() => {}, "page-b")

  await session.call(say("a1"), "run", "page-a")
  await session.call(say("b1"), "run", "page-b")
  await session.call(say("a2"), "run", "page-a")
  await session.reload()
  // Call 3 is a's last, call 2 b's: both run again, once each.
  expect(rerunsIn(session.history(), 3)).toEqual([
    { reruns: 2, output: "b1" },
    { reruns: 3, output: "a2" },
  ])

  closeB()
  const before = session.history().at(-1)!.id
  await session.reload()
  expect(rerunsIn(session.history(), before)).toEqual([
    { reruns: 2, output: "b1" },
    { reruns: 3, output: "a2" },
  ])

  closeB2()
  closeA()
  closeA()
  const last = session.history().at(-1)!.id
  await session.reload()
  expect(rerunsIn(session.history(), last)).toEqual([])
})

test("a call that names no page is run again while it is the last call made", { timeout: 120_000 }, async () => {
  const { session } = await startedSession({ ".opencode/tools/echo.ts": echo })
  session.subscribe(() => {}, "page-a")
  await session.call(say("a1"), "run", "page-a")
  await session.call(say("script"))
  await session.reload()
  expect(rerunsIn(session.history(), 2)).toEqual([
    { reruns: 1, output: "a1" },
    { reruns: 2, output: "script" },
  ])

  // A page's call after it: the script's call is no longer the last, and is not run again.
  await session.call(say("a2"), "run", "page-a")
  const before = session.history().at(-1)!.id
  await session.reload()
  expect(rerunsIn(session.history(), before)).toEqual([{ reruns: before, output: "a2" }])
})
