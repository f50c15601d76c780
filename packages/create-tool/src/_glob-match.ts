// Whether a folder is one a package manager's workspace globs ("packages/*", "apps/**") name. The
// forms workspaces use: `*` and `?` within one segment, `**` for any number of segments, `{a,b}`
// and `[abc]`, and a leading `!` that excludes what another pattern took in. Node 20 has no glob
// matcher but an experimental one, and a dependency for this would be most of create-tool's code.

/**
 * Whether `path` (relative, with forward slashes, no `./`) matches one of `patterns` and none of
 * the `!` ones. A pattern's segments match a path's segments one to one (`**` any number of them).
 */
export function matchesGlobs(path: string, patterns: readonly string[]): boolean {
  const segments = splitPath(path)
  const matches = (pattern: string) => matchSegments(splitPath(pattern).map(segmentPattern), segments)
  const included = patterns.filter((pattern) => !pattern.startsWith("!"))
  const excluded = patterns.filter((pattern) => pattern.startsWith("!")).map((pattern) => pattern.slice(1))
  return included.some(matches) && !excluded.some(matches)
}

// --- internal ---

/** The segments of a path or pattern, without `.` ones, empty ones and a leading `./`. */
function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "" && segment !== ".")
}

/** `**`, or a regular expression for one segment of a pattern. */
function segmentPattern(segment: string): RegExp | "**" {
  if (segment === "**") return "**"
  let source = ""
  for (let index = 0; index < segment.length; index++) {
    const character = segment[index]!
    if (character === "*") source += "[^/]*"
    else if (character === "?") source += "[^/]"
    else if (character === "{") {
      const end = segment.indexOf("}", index)
      if (end === -1) source += "\\{"
      else {
        const choices = segment.slice(index + 1, end).split(",")
        source += `(?:${choices.map(escapeRegExp).join("|")})`
        index = end
      }
    } else if (character === "[") {
      const end = segment.indexOf("]", index + 1)
      if (end === -1) source += "\\["
      else {
        const set = segment
          .slice(index + 1, end)
          .replace(/^!/, "^")
          .replaceAll("\\", "\\\\")
        source += `[${set}]`
        index = end
      }
    } else source += escapeRegExp(character)
  }
  return new RegExp(`^${source}$`)
}

function matchSegments(pattern: readonly (RegExp | "**")[], path: readonly string[]): boolean {
  const [first, ...rest] = pattern
  if (first === undefined) return path.length === 0
  if (first === "**") {
    for (let skip = 0; skip <= path.length; skip++) if (matchSegments(rest, path.slice(skip))) return true
    return false
  }
  const [segment, ...remaining] = path
  return segment !== undefined && first.test(segment) && matchSegments(rest, remaining)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")
}
