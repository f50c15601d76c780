// The ```sh blocks of a Markdown page, with the marker that may stand on the line before each:
//   <!-- docs-test: skip REASON -->    not run here (npm login/publish, the repository's own suite)
//   <!-- docs-test: setup COMMAND -->  COMMAND runs first, for what the reader did by hand earlier
//                                      on the page (wrote a tool or a package from its code blocks)
export type CommandBlock = {
  /** 1-based line of the opening fence. */
  line: number
  script: string
  skip?: string
  setup?: string
}

const markerPattern = /^<!--\s*docs-test:\s*(skip|setup)\s+(.+?)\s*-->$/

export function commandBlocks(markdown: string): CommandBlock[] {
  const lines = markdown.split("\n")
  const blocks: CommandBlock[] = []
  for (let index = 0; index < lines.length; index++) {
    if (lines[index]?.trim() !== "```sh") continue
    const end = lines.findIndex((line, at) => at > index && line.trim() === "```")
    if (end === -1) throw new Error(`The sh block at line ${index + 1} is not closed.`)
    const block: CommandBlock = { line: index + 1, script: lines.slice(index + 1, end).join("\n") }
    const marker = markerPattern.exec(lines[index - 1]?.trim() ?? "")
    if (marker?.[1] === "skip") block.skip = marker[2] as string
    if (marker?.[1] === "setup") block.setup = marker[2] as string
    blocks.push(block)
    index = end
  }
  return blocks
}

/** Markers that stand anywhere but right before a sh block: a typo or a moved block. */
export function strayMarkers(markdown: string): number[] {
  const lines = markdown.split("\n")
  return lines.flatMap((line, index) =>
    line.includes("docs-test:") && lines[index + 1]?.trim() !== "```sh" ? [index + 1] : [],
  )
}
