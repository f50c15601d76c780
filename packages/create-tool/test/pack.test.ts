import { cpSync, existsSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { packageDirectory, run, templatesDirectory, useTmpDir } from "./helpers.ts"

// What npm publishes: the package's `files` (bin.js, dist, templates), and a CLI that works from the
// unpacked tarball with no node_modules at all (kleur is bundled in; prompts loads on a question).
// The package is staged in a temporary folder with the templates copied in, as the prepack script
// does, so that packing never adds or removes packages/create-tool/templates under running tests.

test("the packed package ships bin.js, dist and the templates, and scaffolds from the tarball", async () => {
  const staging = useTmpDir()
  for (const entry of ["package.json", "bin.js", "README.md", "LICENSE", "dist"]) {
    cpSync(join(packageDirectory, entry), join(staging, entry), { recursive: true })
  }
  cpSync(templatesDirectory, join(staging, "templates"), { recursive: true })
  const packed = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", staging], {
    cwd: staging,
  })
  expect(packed.code, packed.stderr).toBe(0)
  const [{ filename, files }] = JSON.parse(packed.stdout) as [{ filename: string; files: Array<{ path: string }> }]
  const paths = files.map((file) => file.path)
  for (const path of [
    "bin.js",
    "dist/cli.js",
    "dist/index.js",
    "dist/index.d.ts",
    "templates/default/tool.ts",
    "templates/python/tool.py",
    "templates/_project/_gitignore",
    "templates/_plugin/index.ts",
  ]) {
    expect(paths).toContain(path)
  }
  expect(paths.filter((path) => /^(src|test|bench|scripts)\//.test(path) || path.endsWith(".map"))).toEqual([])

  const unpacked = join(staging, "unpacked")
  mkdirSync(unpacked)
  expect((await run("tar", ["-xzf", join(staging, filename), "-C", unpacked], { cwd: staging })).code).toBe(0)
  const project = useTmpDir()
  const scaffolded = await run(process.execPath, [join(unpacked, "package/bin.js"), "hello", "--no-interactive"], {
    cwd: project,
  })
  expect(scaffolded.stderr).toBe("")
  expect(scaffolded.code).toBe(0)
  expect(existsSync(join(project, ".opencode/tools/hello.ts"))).toBe(true)
  expect(existsSync(join(project, ".opencode/.gitignore"))).toBe(true)
})
