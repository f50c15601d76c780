// Text from tools (output, titles, console, error messages, file names) goes into the human reports
// as the user's terminal would show it, not as it would act on it. A terminal acts on control
// characters: ESC starts sequences that switch to the alternate screen, hide the cursor, recolour
// or retitle the window; C1 controls (U+0080-U+009F) do the same on some terminals; BEL rings,
// backspace and carriage return overwrite what was printed; bidi overrides reorder what follows
// (Trojan Source). Each is shown escaped, JSON-style (`\u001b`, `\r`), so the report cannot be
// redrawn by the tool and shows what the model would read. `--json` output never goes through here.

/** C0 controls but tab and newline, DEL, C1 controls, and the bidi embeddings, overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

const NAMED: Record<string, string> = { "\b": "\\b", "\f": "\\f", "\r": "\\r" }

/** `text` with every character a terminal would act on escaped; tabs and newlines are kept. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (char) => NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)
}
