// A button that puts a call on the clipboard as JSON, as the MCP Inspector's copy buttons do: to
// paste into a bug report, a test's fixture or `tool-tester run --args`.
import { useEffect, useState } from "preact/hooks"
import { html } from "./html.ts"

/** How long the button says what became of the copy before it reads as a button again. */
const SAID_MS = 1500

export function CopyButton({ label, text }: { label: string; text: () => string }): unknown {
  const [said, setSaid] = useState<"copied" | "failed" | undefined>(undefined)
  useEffect(() => {
    if (said === undefined) return
    const timer = setTimeout(() => setSaid(undefined), SAID_MS)
    return () => clearTimeout(timer)
  }, [said])
  // The clipboard needs a secure context: 127.0.0.1 and localhost are one, so it fails only when
  // the browser refuses it (a permission denied): the button says so.
  const copy = () =>
    navigator.clipboard.writeText(text()).then(
      () => setSaid("copied"),
      () => setSaid("failed"),
    )
  return html`<button type="button" class="small" data-testid="copy" onClick=${copy}>
    ${said === "copied" ? "copied" : said === "failed" ? "copy failed: select the text instead" : label}
  </button>`
}
