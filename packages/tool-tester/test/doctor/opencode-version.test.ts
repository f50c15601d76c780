// Which opencode tool-tester speaks for, and doctor's warning when the user's differs in a way that
// matters (docs/fidelity.md#opencode-versions).
import { chmodSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, onTestFinished, test, vi } from "vitest"
import { shellWord } from "../../src/_shell-quote.ts"
import { opencodeVersionFindings } from "../../src/doctor/opencode-versions.ts"
import { opencodeVersionOf, versionWarning } from "../../src/opencode/opencode-version-check.ts"
import { testedOpencodeVersion } from "../../src/opencode/opencode-binary.ts"
import { opencodeBinaryIn, opencodePackageNames } from "../../src/opencode/opencode-packages.ts"
import { opencode, useTmpDir } from "../helpers.ts"
import { tmpProject } from "../support/tmp-project.ts"

/** A project with opencode's platform package of `version` installed (its binary is never run). */
function projectWithOpencode(version: string): { directory: string; binary: string } {
  const directory = tmpProject({})
  const name = opencodePackageNames()[0]!
  const packageDirectory = path.join(directory, "node_modules", name)
  const binary = opencodeBinaryIn(packageDirectory)
  mkdirSync(path.dirname(binary), { recursive: true })
  writeFileSync(path.join(packageDirectory, "package.json"), JSON.stringify({ name, version }))
  writeFileSync(binary, "not run")
  chmodSync(binary, 0o755)
  return { directory, binary }
}

describe("opencode versions", () => {
  test("a newer patch of the modelled minor is fine; another minor, 2.x or an older 1.x is named", () => {
    const verify = "npx --no --prefix .opencode tool-tester verify --opencode /x/opencode"
    expect(versionWarning("1.18.34", "/x/opencode", verify)).toBeUndefined()
    expect(versionWarning("1.18.40", "/x/opencode", verify)).toBeUndefined()
    const older = versionWarning("1.15.13", "/x/opencode", verify)
    expect(older).toContain("your opencode is 1.15.13 (/x/opencode) and tool-tester models opencode 1.18.34")
    expect(older).toContain("older 1.x versions")
    // What to do is a command to paste, naming the very binary warned about.
    expect(older).toMatch(
      /; `npx --no --prefix \.opencode tool-tester verify --opencode \/x\/opencode` shows which of tool-tester's predictions hold for it \(e2e --init, given the same --opencode, writes a script and the command that runs your tools in it\), or use opencode 1\.18\.34$/,
    )
    // 1.18.33 is the oldest checked (the `opencode-ai` npm installs); 1.18.32 was never checked.
    expect(versionWarning("1.18.33", "/x/opencode", verify)).toBeUndefined()
    expect(versionWarning("1.18.32", "/x/opencode", verify)).toContain("older 1.x versions")
    expect(versionWarning("1.18.2", "/x/opencode", verify)).toContain("1.18.2")
    expect(versionWarning("1.19.5", "/x/opencode", verify)).toContain("a newer minor")
    expect(versionWarning("2.3.0", "/x/opencode", verify)).toContain("@opencode/plugin")
  })

  test("the version of an installed opencode is read from its package, without running it", async () => {
    const { binary } = projectWithOpencode("1.15.13")
    expect(await opencodeVersionOf(binary)).toBe("1.15.13")
  })

  test.skipIf(!opencode.binary)(
    `an opencode outside a package is run for its version, and writes nothing into the user's home${opencode.reason ? ` (${opencode.reason})` : ""}`,
    { timeout: 120_000 },
    async () => {
      // A link outside opencode's package: its version is not read from a package.json.
      const folder = tmpProject({})
      const link = path.join(folder, "bin", process.platform === "win32" ? "opencode.exe" : "opencode")
      mkdirSync(path.dirname(link))
      symlinkSync(opencode.binary!, link)
      const home = useTmpDir("tool-tester-home-")
      vi.stubEnv("HOME", home)
      vi.stubEnv("USERPROFILE", home)
      for (const variable of ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"])
        vi.stubEnv(variable, undefined)
      onTestFinished(() => {
        vi.unstubAllEnvs()
      })
      expect(await opencodeVersionOf(link)).toBe(testedOpencodeVersion)
      // opencode makes ~/.config/opencode (and its data, cache and state folders) on every start.
      expect(readdirSync(home)).toEqual([])
    },
  )

  test("doctor warns, naming both versions, about the project's opencode 1.15.13", async () => {
    const { directory, binary } = projectWithOpencode("1.15.13")
    const findings = await opencodeVersionFindings({ directory, env: { PATH: "" }, toolTester: "npx tt" })
    expect(findings).toEqual([
      expect.objectContaining({ code: "OPENCODE_VERSION", severity: "warning", data: { version: "1.15.13" } }),
    ])
    expect(findings[0]?.message).toContain(
      `your opencode is 1.15.13 (${binary}) and tool-tester models opencode 1.18.34`,
    )
    // The command checks that binary: without --opencode, verify could run another opencode (tool-tester's own).
    expect(findings[0]?.message).toContain(`\`npx tt verify --opencode ${shellWord(binary)}\``)
  })

  test("doctor says nothing about the modelled version", async () => {
    const { directory } = projectWithOpencode("1.18.34")
    expect(await opencodeVersionFindings({ directory, env: { PATH: "" }, toolTester: "npx tt" })).toEqual([])
  })

  test("doctor says nothing about 1.18.33, the opencode-ai that `npm i opencode-ai` installs", async () => {
    const { directory } = projectWithOpencode("1.18.33")
    expect(await opencodeVersionFindings({ directory, env: { PATH: "" }, toolTester: "npx tt" })).toEqual([])
  })
})
