// The tool's schema as each provider receives it, side by side. What is highlighted is what
// opencode's fixes for a provider's model changed, against the schema the tool itself defines: the
// first column, `@ai-sdk/openai-compatible`, for which opencode changes nothing. A line of a
// column that the first column does not have at that place with that value is highlighted
// (added or changed); a line of the first column that a column lacks is shown struck through in
// that column (removed). Key order is not compared: JSON objects have none.
import { html } from "./html.ts"
import type { ProjectView } from "./types.ts"

/** One printed line of a schema, with where it sits (a JSON path) and what it says there. */
type Line = { indent: string; text: string; key: string }

type Kind = "same" | "differs" | "removed"

const TITLES: Record<Kind, string | undefined> = {
  same: undefined,
  differs: "opencode's fixes for this model add or change this line",
  removed: "opencode's fixes for this model remove this line",
}

export function SchemasView({ view, toolId }: { view: ProjectView; toolId: string }): unknown {
  const columns = view.providers.map((provider) => {
    const entry = view.schemas[provider.name]
    if (!entry) return { provider, lines: [] as Line[], error: "not built" }
    if ("error" in entry) return { provider, lines: [] as Line[], error: `${entry.error.code}: ${entry.error.message}` }
    const schema = entry.tools[toolId]
    if (!schema) return { provider, lines: [] as Line[], error: "not offered to this model" }
    return { provider, lines: printed(schema), error: undefined }
  })
  const baseline = columns[0]?.error === undefined ? columns[0]!.lines : undefined
  return html`<div class="schemas" data-testid="schemas">
    ${columns.map(
      (column, index) => html`<div class="schema-column" data-provider=${column.provider.name}>
        <h3>${column.provider.name}</h3>
        <div class="hint"><span class="nowrap">${column.provider.model.npm}</span> · <span class="nowrap model">${column.provider.model.modelID}</span></div>
        ${
          column.error
            ? html`<div class="problem">${column.error}</div>`
            : html`<pre class="code">${compared(column.lines, index === 0 ? undefined : baseline).map(
                ({ line, kind }) =>
                  html`<div class=${kind === "same" ? "line" : `line ${kind}`} title=${TITLES[kind]}><span class="indent">${line.indent}</span><span class="text">${breakable(line.text)}</span></div>`,
              )}</pre>`
        }
      </div>`,
    )}
  </div>`
}

// --- internal ---

/**
 * The column's lines, each marked against the baseline's, with the baseline's lines the column
 * lacks put back, struck through, after the nearest line before them that both have.
 */
function compared(lines: Line[], baseline: Line[] | undefined): Array<{ line: Line; kind: Kind }> {
  if (!baseline) return lines.map((line) => ({ line, kind: "same" }))
  const own = new Set(lines.map((line) => line.key))
  const inBaseline = new Set(baseline.map((line) => line.key))
  const removedAfter = new Map<string, Line[]>()
  let anchor = ""
  for (const line of baseline) {
    if (own.has(line.key)) anchor = line.key
    else removedAfter.set(anchor, [...(removedAfter.get(anchor) ?? []), line])
  }
  const removed = (key: string) => (removedAfter.get(key) ?? []).map((line) => ({ line, kind: "removed" as const }))
  return [
    ...removed(""),
    ...lines.flatMap((line) => [
      { line, kind: inBaseline.has(line.key) ? ("same" as const) : ("differs" as const) },
      ...removed(line.key),
    ]),
  ]
}

/**
 * Where a line may wrap: at its spaces and after a slash (in the URL of `$schema`), never inside a
 * word such as `json-schema` or `2020-12`, which a browser would break after a hyphen. A word
 * longer than LONG characters is left to the browser, so it can still break to stay in its column.
 */
function breakable(text: string): unknown[] {
  const pieces: unknown[] = []
  for (const [piece] of text.matchAll(/\s+|[^\s/]*\/|[^\s/]+/g)) {
    if (piece.includes("-") && piece.length <= LONG) pieces.push(html`<span class="nowrap">${piece}</span>`)
    else pieces.push(piece)
    if (piece.endsWith("/")) pieces.push(html`<wbr />`)
  }
  return pieces
}

const LONG = 24

/** Pretty-printed like JSON.stringify(value, null, 2), each line keyed by its path and value. */
function printed(value: unknown): Line[] {
  const lines: Line[] = []
  const walk = (current: unknown, path: string, indent: string, label: string, last: boolean) => {
    const comma = last ? "" : ","
    if (typeof current === "object" && current !== null) {
      const entries = Array.isArray(current)
        ? current.map((item, index) => [String(index), item] as const)
        : Object.entries(current)
      const [open, close] = Array.isArray(current) ? ["[", "]"] : ["{", "}"]
      if (entries.length === 0) {
        lines.push({ indent, text: `${label}${open}${close}${comma}`, key: `${path}=${open}${close}` })
        return
      }
      lines.push({ indent, text: `${label}${open}`, key: `${path}${open}` })
      for (const [index, [name, item]] of entries.entries()) {
        const key = Array.isArray(current) ? "" : `${JSON.stringify(name)}: `
        walk(item, `${path}/${name}`, `${indent}  `, key, index === entries.length - 1)
      }
      lines.push({ indent, text: `${close}${comma}`, key: `${path}${close}` })
      return
    }
    lines.push({
      indent,
      text: `${label}${JSON.stringify(current)}${comma}`,
      key: `${path}=${JSON.stringify(current)}`,
    })
  }
  walk(value, "", "", "", true)
  return lines
}
