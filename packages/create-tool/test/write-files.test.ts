import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { writeFilesAtomically } from "../src/write-files.ts"
import { useTmpDir } from "./helpers.ts"

/** Every file and folder under `directory`, relative, sorted. */
function tree(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: "utf8" }).sort()
}

test("writes new files and creates their folders", async () => {
  const directory = useTmpDir()
  await writeFilesAtomically([
    { path: join(directory, "a/b/one.ts"), content: "1", replace: false },
    { path: join(directory, "a/two.ts"), content: "2", replace: false },
  ])
  expect(tree(directory)).toEqual(["a", "a/b", "a/b/one.ts", "a/two.ts"])
  expect(readFileSync(join(directory, "a/b/one.ts"), "utf8")).toBe("1")
})

test("replaces a file it is told to replace, and leaves no backup", async () => {
  const directory = useTmpDir()
  writeFileSync(join(directory, "package.json"), "old")
  await writeFilesAtomically([{ path: join(directory, "package.json"), content: "new", replace: true }])
  expect(readFileSync(join(directory, "package.json"), "utf8")).toBe("new")
  expect(tree(directory)).toEqual(["package.json"])
})

test("never replaces a file that appeared after planning", async () => {
  const directory = useTmpDir()
  writeFileSync(join(directory, "tool.ts"), "theirs")
  await expect(
    writeFilesAtomically([
      { path: join(directory, "new.ts"), content: "mine", replace: false },
      { path: join(directory, "tool.ts"), content: "mine", replace: false },
    ]),
  ).rejects.toMatchObject({ code: "FILE_EXISTS" })
  expect(readFileSync(join(directory, "tool.ts"), "utf8")).toBe("theirs")
  expect(tree(directory)).toEqual(["tool.ts"])
})

test("a folder that cannot be created leaves nothing half-written", async () => {
  const directory = useTmpDir()
  writeFileSync(join(directory, "package.json"), "old")
  writeFileSync(join(directory, "test"), "a file where a folder should go")
  await expect(
    writeFilesAtomically([
      { path: join(directory, "tools/x.ts"), content: "tool", replace: false },
      { path: join(directory, "package.json"), content: "new", replace: true },
      { path: join(directory, "test/x.test.ts"), content: "test", replace: false },
    ]),
  ).rejects.toMatchObject({ code: "UNWRITABLE", message: expect.stringContaining("Nothing was written") })
  expect(tree(directory)).toEqual(["package.json", "test"])
  expect(readFileSync(join(directory, "package.json"), "utf8")).toBe("old")
})

// Node's recursive mkdir never returns for a path under /proc (Node 20.20, as root): --dir /proc/x hung.
test.runIf(process.platform === "linux")(
  "a folder under /proc is UNWRITABLE, and the call returns",
  { timeout: 60_000 },
  async () => {
    const missing = `/proc/create-tool-${process.pid}`
    await expect(
      writeFilesAtomically([{ path: join(missing, ".opencode/tools/x.ts"), content: "tool", replace: false }]),
    ).rejects.toMatchObject({ code: "UNWRITABLE", message: expect.stringContaining("Nothing was written") })
    expect(existsSync(missing)).toBe(false)
  },
)

test("a file that cannot be moved into place rolls back the files placed before it", async () => {
  const directory = useTmpDir()
  writeFileSync(join(directory, "package.json"), "old")
  mkdirSync(join(directory, "z.ts"))
  await expect(
    writeFilesAtomically([
      { path: join(directory, "a.ts"), content: "a", replace: false },
      { path: join(directory, "package.json"), content: "new", replace: true },
      { path: join(directory, "z.ts"), content: "z", replace: true },
    ]),
  ).rejects.toMatchObject({ code: expect.stringMatching(/UNWRITABLE/) })
  expect(existsSync(join(directory, "a.ts"))).toBe(false)
  expect(readFileSync(join(directory, "package.json"), "utf8")).toBe("old")
  expect(tree(directory)).toEqual(["package.json", "z.ts"])
})

test("replaces a symlinked file through its link, and keeps the link", async () => {
  const directory = useTmpDir()
  mkdirSync(join(directory, "shared"))
  writeFileSync(join(directory, "shared/package.json"), "old")
  symlinkSync("shared/package.json", join(directory, "package.json"))
  await writeFilesAtomically([{ path: join(directory, "package.json"), content: "new", replace: true }])
  expect(readlinkSync(join(directory, "package.json"))).toBe("shared/package.json")
  expect(readFileSync(join(directory, "shared/package.json"), "utf8")).toBe("new")
  expect(tree(directory)).toEqual(["package.json", "shared", "shared/package.json"])
})

test("keeps the mode of a replaced file", async () => {
  const directory = useTmpDir()
  for (const mode of [0o600, 0o664, 0o755]) {
    writeFileSync(join(directory, "file"), "old")
    chmodSync(join(directory, "file"), mode)
    await writeFilesAtomically([{ path: join(directory, "file"), content: "new", replace: true }])
    expect(statSync(join(directory, "file")).mode & 0o7777).toBe(mode)
  }
})

test("refuses to replace a file without any write bit, before writing anything", async () => {
  const directory = useTmpDir()
  writeFileSync(join(directory, "package.json"), "old", { mode: 0o444 })
  await expect(
    writeFilesAtomically([
      { path: join(directory, "tools/x.ts"), content: "tool", replace: false },
      { path: join(directory, "package.json"), content: "new", replace: true },
    ]),
  ).rejects.toMatchObject({
    code: "UNWRITABLE",
    message: expect.stringContaining("package.json: the file is read-only. Nothing was written"),
    data: { reason: "read-only" },
  })
  expect(tree(directory)).toEqual(["package.json"])
  expect(readFileSync(join(directory, "package.json"), "utf8")).toBe("old")
})
