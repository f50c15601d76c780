import { describe, expect, test } from "vitest"
import { compareWithPrevious, renderEvalHtml, summarizeTrials } from "../../src/eval/report/index.ts"
import type { EvalRun, HistoryEntry } from "../../src/eval/types.ts"
import { cases, sampleRun, tools, trial } from "./_report-sample.ts"

/** Every element the page is made of. */
const PAGE_ELEMENTS = [
  "tfoot",
  "html",
  "head",
  "meta",
  "title",
  "style",
  "body",
  "header",
  "h1",
  "p",
  "code",
  "time",
  "main",
  "div",
  "table",
  "caption",
  "thead",
  "tr",
  "th",
  "tbody",
  "span",
  "td",
  "details",
  "summary",
  "svg",
  "rect",
  "h3",
  "h4",
  "pre",
  "del",
  "ins",
  "strong",
  "ul",
  "li",
  "ol",
]

const hostile = `</pre></details><script>alert("x")</script><img src=x onerror='alert(1)'><a href="https://evil.example">`

function hostileRun(): EvalRun {
  const evil = trial({
    case: "weather-paris",
    model: `evil/"><script>alert(2)</script>`,
    run: 1,
    turns: [
      {
        prompt: `prompt ${hostile}`,
        calls: [
          { tool: `bash${hostile}`, args: { command: hostile }, status: "error", error: `error ${hostile}` },
          { tool: "weather", args: hostile, status: "completed", output: `output ${hostile}` },
        ],
        text: `text ${hostile} \u202eevil`,
      },
    ],
    error: { code: `CODE${hostile}`, message: `message ${hostile}` },
    grade: { pass: false, reasons: [`reason ${hostile}`] },
  })
  return {
    id: `run${hostile}`,
    startedAt: `2026-12-01T19:00:00.000Z${hostile}`,
    durationMs: 10,
    opencodeVersion: `1.0${hostile}`,
    results: summarizeTrials([{ ...cases[0], name: "weather-paris", prompt: hostile }], [evil], {
      [evil.model]: [{ id: "weather", description: `now ${hostile}`, parameters: { hostile: `${hostile}!` } }],
    }),
  }
}

describe("renderEvalHtml", () => {
  test("escapes everything a model, a tool or a case wrote", () => {
    const run = hostileRun()
    const [result] = run.results
    if (!result) throw new Error("no result")
    const history: HistoryEntry[] = [
      {
        runId: "old",
        startedAt: `2026-11-01T00:00:00.000Z${hostile}`,
        case: result.case,
        model: result.model,
        runs: 1,
        passed: 1,
        tools: [{ id: "weather", description: `old ${hostile}`, parameters: { hostile } }],
        failures: [hostile],
      },
    ]
    const html = renderEvalHtml(run, compareWithPrevious(run.results, history), history)
    // Text never opens an element: the only tags are the page's own, with the page's own attributes.
    const tags = html.match(/<[a-z][^>]*>/gi) ?? []
    const elements = new Set(tags.map((tag) => /^<([a-z0-9]+)/i.exec(tag)?.[1] ?? tag))
    expect([...elements].filter((element) => !PAGE_ELEMENTS.includes(element))).toEqual([])
    const attributes = tags.map((tag) => tag.replace(/"[^"]*"/g, '""'))
    expect(attributes.filter((tag) => /\s(on\w+|src|href|style)=/i.test(tag))).toEqual([])
    expect(attributes.filter((tag) => /'/.test(tag))).toEqual([])
    expect(html).toContain("<del>- old &lt;/pre&gt;")
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;")
    expect(html).toContain("&lt;img src=x onerror=&#39;alert(1)&#39;&gt;")
    // The bidi override is written out, not applied.
    expect(html).toContain("\\u202eevil")
    expect(html).not.toContain("\u202e")
    // Every element opened is closed: the page's structure survives the text.
    for (const tag of ["details", "pre", "table", "td", "li", "ul", "ol", "summary", "p"]) {
      const opened = html.match(new RegExp(`<${tag}[\\s>]`, "g"))?.length ?? 0
      expect([tag, html.match(new RegExp(`</${tag}>`, "g"))?.length ?? 0]).toEqual([tag, opened])
    }
  })

  test("is one page that loads nothing from anywhere", () => {
    const { run, history } = sampleRun()
    const html = renderEvalHtml(run, compareWithPrevious(run.results, history), history)
    expect(html.startsWith("<!doctype html>")).toBe(true)
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`)
    expect(html).not.toMatch(/<script|<link|<iframe|src=|href=|url\(|@import/i)
  })

  test("shows each case x model's pass rate, its change with the diff, its trials, and its trend", () => {
    const { run, history } = sampleRun()
    const html = renderEvalHtml(run, compareWithPrevious(run.results, history), history)
    expect(html).toContain(`<th scope="col">keyword/model</th><th scope="col">mock/scripted</th>`)
    expect(html).toContain(
      `<span class="rate rate-some">1/3</span> <span class="interval" title="95% interval">6-79%</span> <span class="was">3/3 -&gt; 1/3 within noise; description changed</span>`,
    )
    expect(html).toContain(`<span class="rate rate-pass">1/1</span>`)
    expect(html).toContain(`<span class="rate rate-fail">0/1</span>`)
    expect(html).toContain(`<del>- Weather for a city</del>\n<ins>+ Current weather for a city</ins>`)
    expect(html).toContain(`aria-label="Pass rate of the last 2 runs, oldest first: 3/3, 1/3"`)
    expect(html).toContain(`<strong>RATE_LIMITED</strong>: 429 Too Many Requests`)
    expect(html).toContain(
      `<code class="call">bash</code> <span class="status">error</span><pre class="args">{&quot;command&quot;:&quot;curl wttr.in/Paris&quot;}</pre>`,
    )
    // forecast-then-weather did not run on mock/scripted.
    expect(html).toContain(`<td class="cell"><span class="rate rate-none">not run</span></td>`)
  })

  test("the trend holds the last ten runs, oldest first, and not the run's own lines twice", () => {
    const run: EvalRun = {
      id: "now",
      startedAt: "2026-12-01T19:00:00.000Z",
      durationMs: 10,
      results: summarizeTrials(cases, [trial({ case: "weather-paris", model: "mock/scripted", run: 1 })], tools),
    }
    const history: HistoryEntry[] = Array.from({ length: 12 }, (_, index) => ({
      runId: index === 11 ? "now" : `run-${index}`,
      startedAt: new Date(Date.UTC(2026, 10, 1 + index)).toISOString(),
      case: "weather-paris",
      model: "mock/scripted",
      runs: 10,
      passed: index,
      tools: [],
      failures: [],
    }))
    const html = renderEvalHtml(run, new Map(), history)
    expect(html).toContain(
      `aria-label="Pass rate of the last 10 runs, oldest first: 2/10, 3/10, 4/10, 5/10, 6/10, 7/10, 8/10, 9/10, 10/10, 1/1"`,
    )
  })

  test("a run with no result says no case ran", () => {
    const run: EvalRun = { id: "r", startedAt: "2026-12-01T19:00:00.000Z", durationMs: 5, results: [] }
    const html = renderEvalHtml(run, new Map(), [])
    expect(html).toContain("<p>No case ran.</p>")
    expect(html).not.toContain("<table")
  })
})
