import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, test, vi } from "vitest"
import { writeFilesAtomically } from "../src/write-files.ts"
import { useTmpDir } from "./helpers.ts"

// A disk that fills up while a file is written: the file has been created, and the write then fails
// with ENOSPC. Played by node:fs itself, on any system and without root (a tiny tmpfs shows the same),
// for content that holds the marker below, whether the file is written by path or by descriptor.
const fillsTheDisk = "<fills the disk>"

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>()
  const writeFileSync: typeof fs.writeFileSync = (file, data, options) => {
    if (typeof data === "string" && data.includes(fillsTheDisk)) {
      if (typeof file !== "number") fs.closeSync(fs.openSync(file, "wx"))
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" })
    }
    fs.writeFileSync(file, data, options)
  }
  return { ...fs, default: { ...fs, writeFileSync }, writeFileSync }
})

/** Every file and folder under `directory`, relative, sorted. */
function tree(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: "utf8" }).sort()
}

test("a new file the disk has no room for leaves no temporary file behind", async () => {
  const directory = useTmpDir()
  await expect(
    writeFilesAtomically([
      { path: join(directory, "tools/w.ts"), content: "tool", replace: false },
      { path: join(directory, "tsconfig.json"), content: fillsTheDisk, replace: false },
    ]),
  ).rejects.toMatchObject({
    code: "UNWRITABLE",
    message: expect.stringContaining("tsconfig.json: no space left on the device. Nothing was written"),
  })
  expect(tree(directory)).toEqual([])
})

test("a replaced file the disk has no room for leaves no temporary file behind, and stays as it was", async () => {
  const directory = useTmpDir()
  writeFileSync(join(directory, "weather.ts"), "old")
  await expect(
    writeFilesAtomically([{ path: join(directory, "weather.ts"), content: fillsTheDisk, replace: true }]),
  ).rejects.toMatchObject({ code: "UNWRITABLE" })
  expect(tree(directory)).toEqual(["weather.ts"])
  expect(readFileSync(join(directory, "weather.ts"), "utf8")).toBe("old")
})
