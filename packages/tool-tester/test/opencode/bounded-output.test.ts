// opencode's stdout and stderr as e2e keeps them: a tool in opencode's process may print without
// end to both, and neither may grow the CLI's memory with it.
import { describe, expect, test } from "vitest"
import { eventLines, headAndTail } from "../../src/opencode/bounded-output.ts"

const event = (type: string) => JSON.stringify({ type, timestamp: 1, sessionID: "ses_1", part: { text: type } })

describe("eventLines", () => {
  test("keeps the event lines, split anywhere across chunks, and lets a tool's lines go", () => {
    const stream = [
      event("step_start"),
      "a tool's own text",
      '{"level":"info","msg":"a JSON log"}',
      event("tool_use"),
      "",
      event("step_finish"),
    ].join("\n")
    for (const size of [1, 3, 7, 1000]) {
      const collector = eventLines()
      for (let at = 0; at < stream.length; at += size) collector.add(stream.slice(at, at + size))
      expect(collector.text().split("\n"), `chunks of ${size}`).toEqual([
        event("step_start"),
        event("tool_use"),
        event("step_finish"),
      ])
      expect(collector.leftOut).toBe("a tool's own text".length + '{"level":"info","msg":"a JSON log"}'.length)
    }
  })

  test("holds no more of a line than its bound: a long line that is no event goes as it streams", () => {
    const collector = eventLines(100)
    collector.add(`${event("step_start")}\nx`)
    // A gigabyte would stream like this: each chunk let go at once.
    for (let chunk = 0; chunk < 1000; chunk++) collector.add("y".repeat(10_000))
    collector.add(`\n{"type":"${"z".repeat(200)}\n${event("text")}\n`)
    expect(collector.text().split("\n")).toEqual([event("step_start"), event("text")])
    expect(collector.leftOut).toBe(1 + 10_000_000 + `{"type":"${"z".repeat(200)}`.length)
  })

  test("a last line without its newline (a run ended mid-event) is kept as it came", () => {
    const collector = eventLines()
    collector.add(`${event("step_start")}\n{"type":"te`)
    expect(collector.text()).toBe(`${event("step_start")}\n{"type":"te`)
  })
})

describe("headAndTail", () => {
  test("short text is kept whole", () => {
    const collector = headAndTail(100)
    collector.add("line 1\n")
    collector.add("line 2\n")
    expect(collector.text()).toBe("line 1\nline 2\n")
    expect(collector.leftOut).toBe(0)
  })

  test("long text keeps its start and its end, saying how much is left out between", () => {
    const collector = headAndTail(10)
    collector.add("0123456789abc")
    for (let chunk = 0; chunk < 100; chunk++) collector.add("-".repeat(7))
    collector.add("the end.")
    expect(collector.leftOut).toBe(3 + 700 + 8 - 10)
    expect(collector.text()).toBe(
      `0123456789\n[${3 + 700 + 8 - 10} characters of opencode's stderr left out]\n--the end.`,
    )
  })
})
