// One way to write a word of a command the user will paste into their shell: as it is when no shell
// needs it quoted, else quoted for the shell they have: a POSIX shell (sh, bash, zsh), Windows'
// cmd.exe, or PowerShell. Hints prefer forms that need no quoting in any of them (`name=Ada`,
// relative paths with forward slashes), so most commands read the same everywhere.
// create-tool prints commands too: its copy is written from this file (scripts/shared-sources.mjs).

export type Shell = "posix" | "cmd" | "powershell"

/**
 * The shell the commands are printed for. POSIX off Windows. On Windows no variable names the
 * shell, so it is inferred: a POSIX shell when one says so (Git Bash and MSYS2 set MSYSTEM, Cygwin
 * and WSL interop set SHELL); PowerShell when PSModulePath has three entries or more (the system
 * sets two, and PowerShell adds the user's own modules folder for itself and what it starts); else
 * cmd.exe.
 */
export function userShell(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
): Shell {
  if (platform !== "win32") return "posix"
  if (env["MSYSTEM"] || env["SHELL"]) return "posix"
  const modules = (env["PSModulePath"] ?? env["PSMODULEPATH"] ?? "").split(";").filter((entry) => entry !== "")
  return modules.length >= 3 ? "powershell" : "cmd"
}

/** `word` as one word of a command line in `shell` (by default the user's: {@link userShell}). */
export function shellWord(word: string, shell: Shell = userShell()): string {
  if (shell === "cmd") return cmdWord(word)
  if (shell === "powershell") return powerShellWord(word)
  return posixWord(word)
}

/** A relative path as hints print it: forward slashes, which every shell and Node read on every OS. */
export function portablePath(relativePath: string): string {
  return relativePath.replaceAll("\\", "/")
}

// --- internal ---

/**
 * sh, bash, zsh: single quotes, a `'` written `'\''`. A word with a character a terminal would not
 * show is written `$'...'` with that character escaped, so the command reads as what it does and
 * runs (bash, zsh, ksh and POSIX.1-2024 shells read $'...').
 */
function posixWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word
  if (!hidden.test(word)) return `'${word.replaceAll("'", "'\\''")}'`
  const escaped = [...word].map((character) => {
    if (character === "\\" || character === "'") return `\\${character}`
    if (character === " " || !hidden.test(character)) return character
    const code = character.codePointAt(0)!
    const digits = code.toString(16).padStart(code < 0x80 ? 2 : code <= 0xffff ? 4 : 8, "0")
    return `${code < 0x80 ? "\\x" : code <= 0xffff ? "\\u" : "\\U"}${digits}`
  })
  return `$'${escaped.join("")}'`
}

/**
 * cmd.exe hands the command line to the program, which splits it by the Microsoft C runtime's rules
 * (Node does). Double quotes keep spaces and `& | < > ( ) ^` from cmd; a backslash before the
 * closing quote is doubled. A word with `"` or `%` (which cmd expands even inside quotes) is quoted
 * for the program and every character cmd reads escaped with `^`, as cross-spawn does.
 */
function cmdWord(word: string): string {
  if (/^[\w@+=:,./\\-]+$/.test(word)) return word
  if (!/["%\r\n]/.test(word)) return `"${word.replace(/(\\+)$/, "$1$1")}"`
  const quoted = `"${word.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, "$1$1")}"`
  return quoted.replace(/[()[\]%!^"`<>&|;, *?]/g, "^$&")
}

/**
 * PowerShell: single quotes, in which nothing is expanded; a quote is doubled (PowerShell reads the
 * typographic single quotes as quotes too). PowerShell 7.3 and later pass a `"` inside on to the
 * program as it is; Windows PowerShell 5.1 drops it, which is why hints avoid JSON there.
 */
function powerShellWord(word: string): string {
  if (/^[\w+=:./\\-]+$/.test(word)) return word
  return `'${word.replace(/['\u2018\u2019\u201a\u201b]/g, "$&$&")}'`
}

/** A character a terminal does not show as itself: controls, format, separators but the space, unassigned, private use. */
const hidden = /(?! )[\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]/u
