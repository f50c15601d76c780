// A word quoted for a POSIX shell when it needs quoting, and as it is when it does not (the hints
// the CLI and preflight print prefer forms that need none: key=value).

/** How a shell needs `text` written: as it is when it is plain, else in single quotes. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`
}
