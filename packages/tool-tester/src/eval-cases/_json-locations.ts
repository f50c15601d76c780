// Reads a JSON case file keeping where every key and element is, so a problem can name its line.
// jsonc-parser (already a dependency, for opencode.json) builds the tree with offsets and reports
// syntax errors with theirs; comments and trailing commas are accepted, as in opencode.json.
import { createRequire } from "node:module"
import type { Node, ParseError } from "jsonc-parser"
import type { KeyPath } from "./validate-case.ts"

export type JsonDocument =
  | { success: true; value: unknown; lineOf: (path: KeyPath) => number | undefined }
  | { success: false; line: number; column: number; message: string }

export function parseJsonDocument(source: string): JsonDocument {
  // Editors on Windows may start a UTF-8 file with a byte order mark; it is not JSON.
  const text = source.replace(/^\uFEFF/, "")
  if (text.trim() === "") return { success: false, line: 1, column: 1, message: "the file is empty" }
  const parser = jsoncParser()
  const errors: ParseError[] = []
  const lines = lineStarts(text)
  let root: Node | undefined
  try {
    root = parser.parseTree(text, errors, { allowTrailingComma: true, allowEmptyContent: false })
  } catch (error) {
    // The parser recurses once per level: tens of thousands of nested brackets overflow the stack.
    if (!(error instanceof RangeError)) throw error
    return { success: false, line: 1, column: 1, message: "it is nested too deeply to read" }
  }
  const first = errors[0]
  if (first || root === undefined) {
    const offset = first?.offset ?? 0
    const { line, column } = position(lines, offset)
    const reason = first ? words(parser.printParseErrorCode(first.error)) : "it holds no value"
    return { success: false, line, column, message: `not valid JSON: ${reason}` }
  }
  const tree = root
  return {
    success: true,
    value: parser.getNodeValue(tree),
    lineOf: (path) => {
      const node = parser.findNodeAtLocation(tree, path)
      if (!node) return undefined
      // A key's problem is on the key's line (where `"expct":` is), an element's where it starts.
      const start = node.parent?.type === "property" ? node.parent.offset : node.offset
      return position(lines, start).line
    },
  }
}

// --- internal ---

/** jsonc-parser ships only a UMD build to Node: required, as src/config/opencode-config.ts does. */
function jsoncParser(): typeof import("jsonc-parser") {
  return createRequire(import.meta.url)("jsonc-parser") as typeof import("jsonc-parser")
}

function lineStarts(text: string): number[] {
  const starts = [0]
  for (let index = 0; index < text.length; index++) if (text[index] === "\n") starts.push(index + 1)
  return starts
}

/** 1-based line and column of an offset. */
function position(starts: number[], offset: number): { line: number; column: number } {
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if (starts[middle]! <= offset) low = middle
    else high = middle - 1
  }
  return { line: low + 1, column: offset - starts[low]! + 1 }
}

/** `CommaExpected` -> `comma expected`. */
function words(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()
}
