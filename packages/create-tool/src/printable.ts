// User input echoed in a message, made visible. A name can hold characters a terminal does not show
// as themselves: a zero-width space, a right-to-left override that reverses what follows, an escape
// that starts a colour. Every message that repeats what the user typed (or a path built from it)
// writes those as \u{202E}, so the message reads as what was typed and cannot rewrite the terminal.

/**
 * `text` with every character a terminal does not show as itself written as `\u{XXXX}` (`\n`, `\r`
 * and `\t` for those three): controls, format characters (Cf: zero-width and bidirectional ones),
 * separators other than the plain space, unassigned, private-use and lone surrogate code points, and
 * the other default-ignorable ones. The rest, backslashes included, is left as typed.
 */
export function printable(text: string): string {
  return text.replace(hidden, (character) => (isHidden(character) ? escapeCharacter(character) : character))
}

/** `"text"`, made printable: for a name or word the user typed. */
export function quoted(text: string): string {
  return `"${printable(text)}"`
}

/** The first character of `text` that printable() escapes, or undefined. */
export function hiddenCharacter(text: string): string | undefined {
  for (const [character] of text.matchAll(hidden)) if (isHidden(character)) return character
  return undefined
}

/** Whether printable() escapes this one character. */
export function isHidden(character: string): boolean {
  return character !== " " && oneHidden.test(character)
}

// --- internal ---

// \p{C}: Cc, Cf, Cs, Co, Cn. \p{Z}: Zs, Zl, Zp (of which the plain space is shown as it is).
const hidden = /[\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]/gu
const oneHidden = /^[\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]$/u

const shortEscapes: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" }

function escapeCharacter(character: string): string {
  return shortEscapes[character] ?? `\\u{${character.codePointAt(0)!.toString(16).toUpperCase()}}`
}
