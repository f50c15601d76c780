import { readdirSync, readFileSync, statSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { packageRoot } from "./helpers.ts"

// Commands the docs, the templates and the CLI's messages print must run as pasted. Two forms never
// do: `npx tool-tester` (no unscoped package of that name: npm fetches whoever claims it) and
// `npx vitest` from the project folder (it downloads another vitest, which knows none of the
// matchers and deletes the snapshot file). The newcomer flow (test/install/install-matrix.test.ts)
// runs the printed ones; this guards the texts that only a reader pastes.
const root = path.resolve(packageRoot, "..", "..")

function files(folder: string, extensions: RegExp): string[] {
  return readdirSync(folder).flatMap((name) => {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) return []
    const file = path.join(folder, name)
    if (statSync(file).isDirectory()) return files(file, extensions)
    return extensions.test(name) ? [file] : []
  })
}

describe("printed commands", () => {
  test("no unscoped npx tool-tester and no bare npx vitest in the docs, templates and sources", () => {
    const texts = [
      path.join(root, "README.md"),
      ...files(path.join(root, "docs"), /\.md$/),
      ...files(path.join(root, "templates"), /\.(md|ts|js|json)$/),
      ...files(path.join(root, "packages", "create-tool", "src"), /\.ts$/),
      ...files(path.join(root, "packages", "tool-tester", "src"), /\.ts$/),
    ]
    const offending = texts.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, index) =>
          /\bnpx (-y )?tool-tester\b|\bnpx (-y )?vitest\b/.test(line)
            ? [`${path.relative(root, file)}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    )
    expect(offending).toEqual([])
  })
})
