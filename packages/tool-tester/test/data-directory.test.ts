import { mkdirSync, readdirSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { dataDirectoryProblem } from "../src/pipeline/data-directory.ts"
import { useTmpDir } from "./helpers.ts"

describe("dataDirectoryProblem", () => {
  test("a folder that exists, or can be created, has no problem", () => {
    const directory = useTmpDir()
    expect(dataDirectoryProblem(directory)).toBeUndefined()
    expect(dataDirectoryProblem(path.join(directory, "not", "yet"))).toBeUndefined()
    mkdirSync(path.join(directory, "tool-output"))
    expect(dataDirectoryProblem(directory)).toBeUndefined()
  })

  test("checking leaves nothing behind: the folders it made to see that it could are removed", () => {
    const directory = useTmpDir()
    mkdirSync(path.join(directory, "kept"))
    expect(dataDirectoryProblem(path.join(directory, "not", "yet"))).toBeUndefined()
    expect(dataDirectoryProblem(path.join(directory, "kept", "below"))).toBeUndefined()
    expect(readdirSync(directory)).toEqual(["kept"])
    expect(readdirSync(path.join(directory, "kept"))).toEqual([])
  })

  test.runIf(process.platform === "linux")(
    "a folder that cannot be created is refused, though access() says root may write there (Linux: /proc)",
    () => {
      expect(dataDirectoryProblem("/proc/tool-tester-nope")).toMatch(
        /^\/proc\/tool-tester-nope\/tool-output cannot be created \(E[A-Z]+\)$/,
      )
    },
  )

  test("names the file in the way: the folder itself, a folder above it, or its tool-output", () => {
    const directory = useTmpDir()
    const file = path.join(directory, "file")
    writeFileSync(file, "")
    expect(dataDirectoryProblem(file)).toBe(`${file} is a file, not a folder`)
    expect(dataDirectoryProblem(path.join(file, "below"))).toBe(`${file} is a file, not a folder`)
    const data = path.join(directory, "data")
    mkdirSync(data)
    writeFileSync(path.join(data, "tool-output"), "")
    expect(dataDirectoryProblem(data)).toBe(`${data}/tool-output is a file, not a folder`)
  })
})
