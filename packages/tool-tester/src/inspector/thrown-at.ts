// Where a tool's error was thrown, as the inspector shows it: the first frame of the stack in the
// tool's own file (`.opencode/tools/weather.ts:7:13`, relative to the project), the line to open.
// Pure string work: the page runs it too, where there is no node:path (and paths may be Windows').

export type ThrownAt = {
  /** `file:line:column`, the file relative to the project when inside it. */
  location: string
  /**
   * Set when the line is not the tool file's own: under the node engine a TypeScript file runs as
   * its compiled copy (docs/fidelity.md), whose line numbers differ from the file's.
   */
  note?: string
}

/** The first frame of `stack` in `toolFile` (or in its prepared copy), else in another file of the project. */
export function thrownAt(stack: string, toolFile: string, directory: string): ThrownAt | undefined {
  const tool = normalized(toolFile)
  const frames = stack
    .split("\n")
    .map((line) => FRAME.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ file: normalized(match[1]!), position: match[2]! }))
  for (const frame of frames) {
    if (samePath(frame.file, tool)) return { location: shown(tool, directory) + frame.position }
    if (isPreparedCopyOf(frame.file, tool)) {
      if (/\.[cm]?js$/.test(tool)) return { location: shown(tool, directory) + frame.position }
      return {
        location: shown(tool, directory),
        note: `line ${frame.position.slice(1)} of the compiled copy the node engine runs; --engine bun shows the file's own line`,
      }
    }
  }
  const root = `${normalized(directory).replace(/\/$/, "")}/`
  const inProject = frames.find((frame) => frame.file.startsWith(root) && !frame.file.includes("/node_modules/"))
  return inProject ? { location: shown(inProject.file, directory) + inProject.position } : undefined
}

// --- internal ---

/** `    at name (file:line:column)` or `    at file:line:column`, as V8 and Bun print a stack frame. */
const FRAME = /^\s+at (?:.*? \()?(.+?)(:\d+:\d+)\)?\s*$/

/** A path with forward slashes; a `file:` URL (Node's frames for ES modules) as its path. */
function normalized(file: string): string {
  let path = file
  if (path.startsWith("file://")) {
    path = safeDecode(path.slice("file://".length))
    if (/^\/[A-Za-z]:/.test(path)) path = path.slice(1)
  }
  return path.replace(/\\/g, "/")
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

function samePath(left: string, right: string): boolean {
  // Windows drives and folders are case-insensitive; the rest compare as they are.
  return /^[A-Za-z]:\//.test(left) ? left.toLowerCase() === right.toLowerCase() : left === right
}

/** The node engine's copy of a project file: `<cache>/modules/<hash>/<name>.<12 hex>.g<n>.mjs`. */
function isPreparedCopyOf(frameFile: string, toolFile: string): boolean {
  const name = toolFile.slice(toolFile.lastIndexOf("/") + 1)
  const copy = frameFile.slice(frameFile.lastIndexOf("/") + 1)
  return (
    frameFile.includes("/modules/") &&
    copy.startsWith(`${name}.`) &&
    /^\.[0-9a-f]{12}\.g\d+\.mjs$/.test(copy.slice(name.length))
  )
}

/** Relative to the project when inside it. */
function shown(file: string, directory: string): string {
  const root = `${normalized(directory).replace(/\/$/, "")}/`
  return file.startsWith(root) ? file.slice(root.length) : file
}
