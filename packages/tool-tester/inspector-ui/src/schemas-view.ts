// The tool's schema as each provider receives it, side by side. A line that not every provider
// receives is highlighted: that is what opencode's fixes for that provider changed.
import { html } from "./html.ts"
import type { ProjectView } from "./types.ts"

export function SchemasView({ view, toolId }: { view: ProjectView; toolId: string }): unknown {
  const columns = view.providers.map((provider) => {
    const entry = view.schemas[provider.name]
    if (!entry) return { provider, lines: [] as string[], error: "not built" }
    if ("error" in entry)
      return { provider, lines: [] as string[], error: `${entry.error.code}: ${entry.error.message}` }
    const schema = entry.tools[toolId]
    if (!schema) return { provider, lines: [] as string[], error: "not offered to this model" }
    return { provider, lines: JSON.stringify(schema, null, 2).split("\n"), error: undefined }
  })
  const built = columns.filter((column) => column.error === undefined)
  const inAll = (line: string) => built.every((column) => column.lines.includes(line))
  return html`<div class="schemas" data-testid="schemas">
    ${columns.map(
      (column) => html`<div class="schema-column" data-provider=${column.provider.name}>
        <h3>${column.provider.name}</h3>
        <div class="hint">${column.provider.model.npm} · ${column.provider.model.modelID}</div>
        ${
          column.error
            ? html`<div class="problem">${column.error}</div>`
            : html`<pre class="code">${column.lines.map(
                (line) => html`<div class=${inAll(line) ? "line" : "line differs"}>${line}</div>`,
              )}</pre>`
        }
      </div>`,
    )}
  </div>`
}
