import htm from "htm"
import { h } from "preact"

/** JSX-like templates without a compile step: html`<div class=${x}>...</div>`. */
export const html = htm.bind(h)
