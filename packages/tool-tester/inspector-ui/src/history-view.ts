// Every call of this session, newest first (by when it started), with what became of it; a call
// that is still running is listed as such from its start, with a button that cancels it.
// Clicking one shows its result and puts its tool and arguments back in the form; any can be
// replayed as it was made.
import { html } from "./html.ts"
import { callStatus } from "./status.ts"
import type { HistoryEntry } from "./types.ts"

export function HistoryView(props: {
  history: HistoryEntry[]
  selected: number | undefined
  onSelect: (id: number) => void
  onReplay: (id: number) => void
  onCancel: (id: number) => void
}): unknown {
  if (props.history.length === 0) return html`<div class="hint">No calls yet.</div>`
  return html`<ol class="history" data-testid="history">
    ${[...props.history]
      .sort((a, b) => b.id - a.id)
      .map((entry) => {
        const status = callStatus(entry)
        return html`<li key=${entry.id} class=${entry.id === props.selected ? "selected" : ""} data-history=${entry.id}>
        <button type="button" class="link" aria-current=${entry.id === props.selected ? "true" : undefined} onClick=${() => props.onSelect(entry.id)}>
          #${entry.id} ${entry.request.name}
          <span class=${`status ${status.tone}`} data-status=${status.label} title=${status.explanation}>${status.label}</span>
          <span class="hint">${entry.trigger} · ${new Date(entry.at).toLocaleTimeString()}</span>
        </button>
        <span class="actions">
          ${
            entry.running
              ? html`<button type="button" class="small" data-cancel=${entry.id} aria-label=${`cancel call ${entry.id}`}
                  disabled=${entry.cancelling === true} onClick=${() => props.onCancel(entry.id)}>${entry.cancelling ? "cancelling..." : "cancel"}</button>`
              : null
          }
          <button type="button" class="small" data-replay=${entry.id} aria-label=${`replay call ${entry.id}`} onClick=${() => props.onReplay(entry.id)}>replay</button>
        </span>
      </li>`
      })}
  </ol>`
}
