// The tool's schema as each provider receives it, side by side. A line is highlighted when not
// every provider receives it at that place with that value: that is what opencode's fixes for the
// provider changed (or, for a provider whose column has no such line, removed).
import { html } from "./html.ts"
import type { ProjectView } from "./types.ts"

/** One printed line of a schema, with where it sits (a JSON path) and what it says there. */
type Line = { text: string; key: string }

export function SchemasView({ view, toolId }: { view: ProjectView; toolId: string }): unknown {
  const columns = view.providers.map((provider) => {
    const entry = view.schemas[provider.name]
    if (!entry) return { provider, lines: [] as Line[], error: "not built" }
    if ("error" in entry) return { provider, lines: [] as Line[], error: `${entry.error.code}: ${entry.error.message}` }
    const schema = entry.tools[toolId]
    if (!schema) return { provider, lines: [] as Line[], error: "not offered to this model" }
    return { provider, lines: printed(schema), error: undefined }
  })
  const built = columns
    .filter((column) => column.error === undefined)
    .map((column) => new Set(column.lines.map((line) => line.key)))
  const inAll = (line: Line) => built.every((keys) => keys.has(line.key))
  return html`<div class="schemas" data-testid="schemas">
    ${columns.map(
      (column) => html`<div class="schema-column" data-provider=${column.provider.name}>
        <h3>${column.provider.name}</h3>
        <div class="hint">${column.provider.model.npm} · ${column.provider.model.modelID}</div>
        ${
          column.error
            ? html`<div class="problem">${column.error}</div>`
            : html`<pre class="code">${column.lines.map(
                (line) => html`<div class=${inAll(line) ? "line" : "line differs"}>${line.text}</div>`,
              )}</pre>`
        }
      </div>`,
    )}
  </div>`
}

// --- internal ---

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
        lines.push({ text: `${indent}${label}${open}${close}${comma}`, key: `${path}=${open}${close}` })
        return
      }
      lines.push({ text: `${indent}${label}${open}`, key: `${path}${open}` })
      for (const [index, [name, item]] of entries.entries()) {
        const key = Array.isArray(current) ? "" : `${JSON.stringify(name)}: `
        walk(item, `${path}/${name}`, `${indent}  `, key, index === entries.length - 1)
      }
      lines.push({ text: `${indent}${close}${comma}`, key: `${path}${close}` })
      return
    }
    lines.push({
      text: `${indent}${label}${JSON.stringify(current)}${comma}`,
      key: `${path}=${JSON.stringify(current)}`,
    })
  }
  walk(value, "", "", "", true)
  return lines
}
