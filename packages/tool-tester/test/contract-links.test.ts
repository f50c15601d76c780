// The repository stands alone: what the code claims opencode does is written down in
// docs/opencode-contract.md, and every reference to it must resolve. This test reads every file git
// tracks (text only) and fails on citations of the notes the project started from (section signs,
// "spec" and a section number), on paths outside the repository, on links to a contract heading
// that does not exist, and on relative Markdown links that leave the repository or name a missing
// file.
import { execFileSync } from "node:child_process"
import { existsSync, lstatSync, readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, test } from "vitest"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const contractPath = "docs/opencode-contract.md"

type TrackedFile = { file: string; lines: string[] }

/** Every text file git tracks, as it is in the work tree (a file holding a NUL byte is binary and skipped). */
function trackedTextFiles(): TrackedFile[] {
  const listed = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  return listed
    .split("\0")
    .filter((file) => file !== "" && !file.split("/").includes("node_modules"))
    .flatMap((file) => {
      const absolute = path.join(root, file)
      // Deleted in the work tree and not committed yet, or a symbolic link (fixtures hold some).
      if (!existsSync(absolute) || !lstatSync(absolute).isFile()) return []
      const buffer = readFileSync(absolute)
      if (buffer.includes(0)) return []
      return [{ file, lines: buffer.toString("utf8").split(/\r?\n/) }]
    })
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-")
}

/** The anchors of a Markdown page's headings, outside code fences, in order (duplicates kept). */
function headingAnchors(markdown: string): string[] {
  const anchors: string[] = []
  let fenced = false
  for (const line of markdown.split(/\r?\n/)) {
    if (/^\s*```/.test(line)) fenced = !fenced
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)
    if (heading) anchors.push(headingAnchor(heading[1] as string))
  }
  return anchors
}

// Each pattern is written so that this file does not match it.
const outsideReferences: Array<{ pattern: RegExp; why: string }> = [
  { pattern: /spec\s*\u00a7/i, why: "cites the old spec by section" },
  { pattern: /\u00a7\s*\d/, why: "cites a section by number" },
  { pattern: /\bspec(?: section)? \d+(?:\.(?:\d+|x))*\b/i, why: "cites the old spec by section" },
  { pattern: /\bpipeline[ ]spec\b|\bbehavioural[ ]spec\b/i, why: "points at the old spec" },
  { pattern: /opencode-tool-(?:pipeline)/, why: "names a file outside the repository" },
  { pattern: /\/work\/(?:shared|briefs|main)\b|\.\.\/shared\/spec\b/, why: "names a path outside the repository" },
]

/** `file:line: why: text` for every line that matches one of the patterns. */
function findOutsideReferences(files: TrackedFile[]): string[] {
  return files.flatMap(({ file, lines }) =>
    lines.flatMap((line, index) =>
      outsideReferences
        .filter(({ pattern }) => pattern.test(line))
        .map(({ why }) => `${file}:${index + 1}: ${why}: ${line.trim()}`),
    ),
  )
}

/** `file:line: #anchor` for every link to a contract heading that `anchors` does not have. */
function findBrokenContractLinks(files: TrackedFile[], anchors: ReadonlySet<string>): string[] {
  const contractName = path.posix.basename(contractPath).replace(/\./g, "\\.")
  const link = new RegExp(`${contractName}#([\\p{L}\\p{N}_-]+)`, "gu")
  const local = /\]\(#([\p{L}\p{N}_-]+)\)/gu
  return files.flatMap(({ file, lines }) =>
    lines.flatMap((line, index) => {
      const targets = [...line.matchAll(link)].map((match) => match[1] as string)
      if (file === contractPath) targets.push(...[...line.matchAll(local)].map((match) => match[1] as string))
      return targets.filter((anchor) => !anchors.has(anchor)).map((anchor) => `${file}:${index + 1}: #${anchor}`)
    }),
  )
}

/** `file:line: target ...` for relative Markdown links that leave the repository or name nothing. */
function findBadMarkdownLinks(files: TrackedFile[]): string[] {
  const link = /\]\(([^)\s]+)\)/g
  return files
    .filter(({ file }) => file.endsWith(".md"))
    .flatMap(({ file, lines }) =>
      lines.flatMap((line, index) =>
        [...line.matchAll(link)].flatMap((match) => {
          const target = (match[1] as string).split("#")[0] as string
          if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target)) return [] // an anchor, or a URL
          const resolved = path.resolve(root, path.dirname(file), decodeURIComponent(target))
          const relative = path.relative(root, resolved)
          if (relative.startsWith("..") || path.isAbsolute(relative)) {
            return [`${file}:${index + 1}: ${target} is outside the repository`]
          }
          return existsSync(resolved) ? [] : [`${file}:${index + 1}: ${target} does not exist`]
        }),
      ),
    )
}

const files = trackedTextFiles()
const contract = files.find(({ file }) => file === contractPath)

describe("the repository stands alone", () => {
  test("the contract is tracked, and its headings give distinct anchors", () => {
    expect(contract, `${contractPath} is not tracked by git`).toBeDefined()
    const anchors = headingAnchors((contract as TrackedFile).lines.join("\n"))
    expect(anchors.filter((anchor, index) => anchors.indexOf(anchor) !== index)).toEqual([])
  })

  test("no tracked file cites the old spec or a path outside the repository", () => {
    expect(findOutsideReferences(files)).toEqual([])
  })

  test("every link to a contract heading names a heading that exists", () => {
    const anchors = new Set(headingAnchors((contract as TrackedFile).lines.join("\n")))
    expect(findBrokenContractLinks(files, anchors)).toEqual([])
  })

  test("relative Markdown links stay inside the repository and name files that exist", () => {
    expect(findBadMarkdownLinks(files)).toEqual([])
  })
})

describe("the checks themselves", () => {
  const planted: TrackedFile[] = [
    {
      file: "src/x.ts",
      lines: [
        `// opencode does it this way (spec ${"\u00a7"}4.3)`,
        `// see spec ${"14.1"} and spec ${"11.x"}`,
        `// see ${"/work/"}shared/notes.md`,
        `// ${contractPath}#no-such-heading`,
        `// ${contractPath}#truncation`,
      ],
    },
    { file: "docs/page.md", lines: ["[out](../../elsewhere.md) [missing](missing.md) [fine](cli.md#engines)"] },
  ]

  test("find each planted bad reference and nothing else", () => {
    expect(findOutsideReferences(planted).map((found) => found.split(": ")[0])).toEqual([
      "src/x.ts:1",
      "src/x.ts:1",
      "src/x.ts:2",
      "src/x.ts:3",
    ])
    expect(findBrokenContractLinks(planted, new Set(["truncation"]))).toEqual(["src/x.ts:4: #no-such-heading"])
    expect(findBadMarkdownLinks(planted)).toEqual([
      "docs/page.md:1: ../../elsewhere.md is outside the repository",
      "docs/page.md:1: missing.md does not exist",
    ])
  })

  test("anchors follow GitHub's rule", () => {
    expect(headingAnchor("opencode.json merging")).toBe("opencodejson-merging")
    expect(headingAnchor("The `invalid` tool")).toBe("the-invalid-tool")
    expect(headingAnchors("# A\n```sh\n# not a heading\n```\n## B c")).toEqual(["a", "b-c"])
  })
})
