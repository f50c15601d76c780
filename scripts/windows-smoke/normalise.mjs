// What may differ between the Windows and the Linux run of one smoke row without being a
// difference: line ends, path separators, where each side's folders are, timings, ids, and the lines
// naming the engine's runtime (node.exe 22 under Wine, this machine's Node on Linux).

/**
 * The text with those parts written the same way on both sides. `folders` are the smoke's own
 * folders (the work folder, the download cache), written `<W>` and `<C>` wherever they appear, as
 * Linux paths or as Wine's `Z:` paths; every `*-win` and `*-lin` folder of the work folder reads
 * `*-<side>`.
 */
export function normalise(text, folders = {}) {
  let out = text.replaceAll("\r", "")
  // JSON writes a backslash twice; every separator becomes "/".
  out = out.replaceAll("\\\\", "/").replaceAll("\\", "/")
  for (const [name, folder] of Object.entries(folders)) {
    if (!folder) continue
    // Wine shows the Linux root as drive Z:, in either case.
    out = out.replace(new RegExp(`[Zz]:${escapeRegExp(folder)}`, "g"), `<${name}>`)
    out = out.replaceAll(folder, `<${name}>`)
  }
  out = out.replace(/([\w.-]+)-(win|lin)\b/g, "$1-<side>")
  // Windows' temporary folder (Wine's C:/users/<user>/Temp) against Linux's.
  out = out
    .replace(/[A-Za-z]:\/users\/[^/]+\/(AppData\/Local\/)?Temp/gi, "<TMP>")
    .replace(/(?<![\w.-])\/tmp(?=\/)/g, "<TMP>")
  out = out.replace(/\b\d+(\.\d+)? ?ms\b/g, "N ms").replace(/\b\d+(\.\d+)? s\b/g, "N s")
  out = out.replace(/"durationMs":\d+(\.\d+)?/g, '"durationMs":N')
  // opencode's ids, made anew on each run (an attachment's part, session and message; the call's).
  out = out.replace(/\b(prt|ses|msg)_[0-9A-Za-z]{26}\b/g, "$1_<id>").replace(/\bcall_[0-9a-f]{12}\b/g, "call_<id>")
  // The opencode each side runs: 1.18.34 is not published for Windows, which runs 1.18.32.
  out = out
    .replace(/\bopencode \d+\.\d+\.\d+ e2e run\b/g, "opencode <version> e2e run")
    // verify's report: "against opencode 1.18.32 (<its path>)", "hold for opencode 1.18.32.".
    .replace(/\b(against|for) opencode \d+\.\d+\.\d+\b/g, "$1 opencode <version>")
    .replace(/\b(against opencode <version>) \([^)\n]*\)/g, "$1 (<opencode>)")
  // The engine's runtime, in --json (an object) and in the text output (a line).
  out = out.replace(/,"engine":\{[^}]*\}/g, "")
  return out
    .split("\n")
    .filter((line) => !/^engine\s|^\s+<W>.*, engine\s|^\s*engine +(node|bun) /.test(line))
    .join("\n")
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}
