// The default data folder (truncated outputs) and module loading's cache belong to one user:
// `<os temp>/opencode-tool-tester-<uid>`, 0700, files 0600. The data folder used to be
// `<os temp>/opencode-tool-tester/data` for everyone, 0755 with 0644 files: other users read the
// saved outputs, and the first user to make it kept the others out.

import { chmodSync, mkdirSync, readdirSync, statSync, symlinkSync } from "node:fs"
import path from "node:path"
import { afterEach, describe, expect, it, vi } from "vitest"
import { ensurePrivateFolder, moduleCacheDirectory } from "../src/runtime/cache-directory.ts"
import { defaultDataDirectory } from "../src/pipeline/data-directory.ts"
import { truncateOutput } from "../src/pipeline/truncate.ts"
import { useTmpDir } from "./helpers.ts"

const posix = process.platform !== "win32"
const uid = process.getuid?.()

afterEach(() => vi.unstubAllEnvs())

function mode(file: string): number {
  return statSync(file).mode & 0o777
}

describe("the default data folder", () => {
  it("is not made, nor checked, until an output is saved", () => {
    const temp = useTmpDir("tool-tester-data-")
    vi.stubEnv("TMPDIR", temp)
    vi.stubEnv("TMP", temp)
    vi.stubEnv("TEMP", temp)
    defaultDataDirectory()
    expect(readdirSync(temp)).toEqual([])
  })

  it("is the user's own, and a saved output is readable by that user only", async () => {
    const temp = useTmpDir("tool-tester-data-")
    vi.stubEnv("TMPDIR", temp)
    vi.stubEnv("TMP", temp)
    vi.stubEnv("TEMP", temp)
    const data = defaultDataDirectory()
    const result = await truncateOutput("line\n".repeat(5000), {
      outputDir: path.join(data, "tool-output"),
      hasTaskTool: false,
    })
    if (!result.truncated) throw new Error("the output was not truncated")
    const [folder] = readdirSync(temp)
    // By uid where there are uids, else by user name (Windows, whose temporary folder is the user's own anyway).
    expect(folder).toMatch(uid === undefined ? /^opencode-tool-tester-.+$/ : `opencode-tool-tester-${uid}`)
    expect(data).toBe(path.join(temp, folder!, "data"))
    if (posix) {
      expect(mode(path.join(temp, folder!))).toBe(0o700)
      expect(mode(path.join(data, "tool-output"))).toBe(0o700)
      expect(mode(result.outputPath)).toBe(0o600)
    }
    expect(moduleCacheDirectory("modules")).toBe(path.join(temp, folder!, "modules"))
  })
})

describe.runIf(posix && uid !== undefined)("ensurePrivateFolder", () => {
  it("closes a folder of the user's own that others could enter", () => {
    const folder = path.join(useTmpDir("tool-tester-private-"), "open")
    mkdirSync(folder)
    chmodSync(folder, 0o777)
    ensurePrivateFolder(folder, uid)
    expect(mode(folder)).toBe(0o700)
  })

  it("refuses a folder another user made first, or a link", () => {
    const parent = useTmpDir("tool-tester-private-")
    const folder = path.join(parent, "theirs")
    mkdirSync(folder)
    expect(() => ensurePrivateFolder(folder, uid! + 1)).toThrow(
      expect.objectContaining({
        code: "TEMP_FOLDER_UNSAFE",
        message: expect.stringContaining("belongs to another user"),
      }),
    )
    const link = path.join(parent, "link")
    symlinkSync(folder, link)
    expect(() => ensurePrivateFolder(link, uid)).toThrow(
      expect.objectContaining({ code: "TEMP_FOLDER_UNSAFE", message: expect.stringContaining("is a link") }),
    )
  })
})
