// Every call of this session, newest first, with what became of it; clicking one shows its result
// and puts its tool and arguments back in the form; any can be replayed as it was made.
import { html } from "./html.ts"
import { callStatus } from "./status.ts"
import type { HistoryEntry } from "./types.ts"

export function HistoryView(props: {
  history: HistoryEntry[]
  selected: number | undefined
  onSelect: (id: number) => void
  onReplay: (id: number) => void
}): unknown {
  if (props.history.length === 0) return html`<div class="hint">No calls yet.</div>`
  return html`<ol class="history" data-testid="history">
    ${[...props.history].reverse().map((entry) => {
      const status = callStatus(entry)
      return html`<li key=${entry.id} class=${entry.id === props.selected ? "selected" : ""} data-history=${entry.id}>
        <button type="button" class="link" aria-current=${entry.id === props.selected ? "true" : undefined} onClick=${() => props.onSelect(entry.id)}>
          #${entry.id} ${entry.request.name}
          <span class=${`status ${status.tone}`} data-status=${status.label} title=${status.explanation}>${status.label}</span>
          <span class="hint">${entry.trigger} · ${new Date(entry.at).toLocaleTimeString()}</span>
        </button>
        <button type="button" class="small" data-replay=${entry.id} aria-label=${`replay call ${entry.id}`} onClick=${() => props.onReplay(entry.id)}>replay</button>
      </li>`
    })}
  </ol>`
}
