// A description as the model reads it (its line breaks kept), folded to its first lines when it
// is long, so that a tool's form is not pushed out of sight below it: a button shows the rest.
import { useState } from "preact/hooks"
import { html } from "./html.ts"

/** Longer than this many characters, or than LINES lines, a text is folded. */
const CHARACTERS = 400
const LINES = 4

export function LongText({ text, className }: { text: string; className: string }): unknown {
  const [open, setOpen] = useState(false)
  const long = text.length > CHARACTERS || text.split("\n").length > LINES
  return html`<div class=${`long-text ${className}`}>
    <div class=${long && !open ? "long-text-body folded" : "long-text-body"}>${text}</div>
    ${
      long
        ? html`<button type="button" class="link more" aria-expanded=${open ? "true" : "false"} onClick=${() => setOpen(!open)}>
            ${open ? "show less" : `show all (${text.length} characters)`}
          </button>`
        : null
    }
  </div>`
}
