import { existsSync, readdirSync } from "node:fs"
import path from "node:path"
import { describe, expect, inject, test } from "vitest"
import { listPackages, root } from "./_packages.ts"
import { describeRun, run, useTmpDir } from "./_run.ts"

const repository = "https://github.com/opencode-tool-kit/opencode-tool-kit"
const packages = listPackages()

describe.each(packages)("$name", (info) => {
  test.each(["pack", "publish"])("npm %s stops at once with one line that says to use pnpm", async (command) => {
    const destination = useTmpDir("npm-pack-")
    const result = await run("npm", [command, "--dry-run", "--pack-destination", destination], {
      cwd: info.directory,
      timeout: 120_000,
    })
    expect(result.status, describeRun(result)).not.toBe(0)
    const guard = result.stderr.split("\n").filter((line) => line.startsWith("✖"))
    expect(guard).toEqual([expect.stringContaining(`Pack and publish ${info.name} with pnpm`)])
    expect(readdirSync(destination)).toEqual([])
    expect(result.stdout).not.toContain("Tarball Contents")
    expect(result.stderr).not.toContain("Tarball Contents")
  })

  test("the tarball pnpm packs holds real versions and says where the package comes from", async () => {
    const tarball = inject("tarballs")[info.name]
    expect(tarball).toBeDefined()
    const result = await run("tar", ["-xzOf", tarball as string, "package/package.json"], {
      cwd: root,
      timeout: 60_000,
    })
    expect(result.status, describeRun(result)).toBe(0)
    const manifest = JSON.parse(result.stdout)
    const ranges = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"].flatMap((field) =>
      Object.values<string>(manifest[field] ?? {}),
    )
    expect(ranges.length).toBeGreaterThan(0)
    expect(ranges.filter((range) => /^(catalog|workspace):/.test(range))).toEqual([])
    const directory = path.relative(root, info.directory).split(path.sep).join("/")
    expect(manifest.repository).toEqual({ type: "git", url: `git+${repository}.git`, directory })
    expect(manifest.homepage).toBe(`${repository}/tree/main/${directory}#readme`)
    expect(manifest.bugs).toEqual({ url: `${repository}/issues` })
  })

  test("the README in the tarball links only to absolute URLs, which still work once installed", async () => {
    const result = await run("tar", ["-xzOf", inject("tarballs")[info.name] as string, "package/README.md"], {
      cwd: root,
      timeout: 60_000,
    })
    expect(result.status, describeRun(result)).toBe(0)
    const targets = [...result.stdout.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] as string)
    expect(targets.length).toBeGreaterThan(0)
    expect(targets.filter((target) => !/^(https?:\/\/|#)/.test(target))).toEqual([])
  })
})

test("the release dry run packs and checks every package without registry credentials", () => {
  const result = inject("releaseDryRun")
  expect(result.status, describeRun(result)).toBe(0)
  expect(`${result.stdout}${result.stderr}`).not.toMatch(/ERR_|npm error/)
  // create-tool's prepack copy of the templates is gone again.
  expect(existsSync(path.join(root, "packages", "create-tool", "templates"))).toBe(false)
})
