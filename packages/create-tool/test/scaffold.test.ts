import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import ts from "typescript"
import { describe, expect, test } from "vitest"
import { planScaffold } from "../src/plan.ts"
import { scaffold } from "../src/scaffold.ts"
import { templatesDirectory, useTmpDir } from "./helpers.ts"

const read = (path: string) => readFileSync(path, "utf8")
const readJson = (path: string) => JSON.parse(read(path)) as Record<string, any>
const files = (directory: string) => readdirSync(directory, { recursive: true, encoding: "utf8" }).sort()

describe("in a project", () => {
  test("writes the tool, its test and the .opencode files, with the tool id opencode will use", async () => {
    const directory = useTmpDir()
    const result = await scaffold({ name: "hello", directory, templatesDirectory })
    expect(result.toolIds).toEqual(["hello"])
    expect(result.root).toBe(join(directory, ".opencode"))
    expect(result.files.map((file) => [file.path.slice(directory.length + 1), file.status])).toEqual([
      [".opencode/tools/hello.ts", "created"],
      [".opencode/test/hello.test.ts", "created"],
      [".opencode/package.json", "created"],
      [".opencode/tsconfig.json", "created"],
      [".opencode/.gitignore", "created"],
      [".opencode/pnpm-workspace.yaml", "created"],
      [".opencode/vitest.config.js", "created"],
    ])
    const tool = read(join(directory, ".opencode/tools/hello.ts"))
    expect(tool).toContain("export default tool({")
    expect(tool).toContain('description: "Answer with the text it is given"')
    expect(tool).not.toContain("@tool-begin")
    expect(read(join(directory, ".opencode/.gitignore"))).toBe(
      "node_modules\n# tool-tester eval keeps its run history here (docs/evals.md)\nevals/history.jsonl\n" +
        "# yarn 2 and later: its install state, and Plug'n'Play's files (without nodeLinker: node-modules)\n" +
        ".yarn/install-state.gz\n.pnp.*\n",
    )
    expect(readJson(join(directory, ".opencode/package.json"))).toEqual({
      private: true,
      type: "module",
      scripts: { test: "vitest run", typecheck: "tsc --noEmit" },
      dependencies: { "@opencode-ai/plugin": "^1.18.33" },
      devDependencies: {
        "@opencode-ai/tool-tester": "^0.1.0",
        "@types/bun": "^1.3.14",
        "@types/node": "^20.19.0",
        typescript: "^5.9.3",
        vitest: "^4.1.12",
      },
      engines: { node: "^20.19.0 || >=22.12.0" },
    })
  })

  test("named exports become NAME_export tools in one file", async () => {
    const directory = useTmpDir()
    const result = await scaffold({ name: "math", directory, exports: ["add", "multiply"], templatesDirectory })
    expect(result.toolIds).toEqual(["math_add", "math_multiply"])
    const tool = read(join(directory, ".opencode/tools/math.ts"))
    expect(tool).toContain("export const add = tool({")
    expect(tool).toContain("export const multiply = tool({")
    expect(tool).not.toContain("export default")
    expect(read(join(directory, ".opencode/test/math.test.ts"))).toContain('["math_add", "math_multiply"]')
  })

  test("the python template writes one script per tool id, next to the tool file", async () => {
    const directory = useTmpDir()
    await scaffold({ name: "count", directory, template: "python", exports: ["words"], templatesDirectory })
    expect(files(join(directory, ".opencode/tools"))).toEqual(["count.ts", "count_words.py"])
    expect(read(join(directory, ".opencode/tools/count.ts"))).toContain('new URL("./count_words.py", import.meta.url)')
  })

  test("JavaScript without a test needs only @opencode-ai/plugin", async () => {
    const directory = useTmpDir()
    const result = await scaffold({ name: "hello", directory, language: "js", test: false, templatesDirectory })
    expect(files(join(directory, ".opencode"))).toEqual([
      ".gitignore",
      "package.json",
      // @opencode-ai/plugin brings msgpackr-extract, whose build script pnpm 11 and later stop at.
      "pnpm-workspace.yaml",
      "tools",
      "tools/hello.js",
    ])
    expect(result.test).toBe(false)
    expect(readJson(join(directory, ".opencode/package.json"))).toEqual({
      private: true,
      type: "module",
      dependencies: { "@opencode-ai/plugin": "^1.18.33" },
      devDependencies: { "@types/node": "^20.19.0" },
    })
  })

  test("adds to an existing package.json and keeps the user's entries", async () => {
    const directory = useTmpDir()
    mkdirSync(join(directory, ".opencode"))
    const existing = { dependencies: { "@opencode-ai/plugin": "1.18.34" }, scripts: { typecheck: "tsc -b" } }
    writeFileSync(join(directory, ".opencode/package.json"), JSON.stringify(existing))
    const result = await scaffold({ name: "hello", directory, templatesDirectory })
    const packageJson = readJson(join(directory, ".opencode/package.json"))
    expect(packageJson.dependencies).toEqual({ "@opencode-ai/plugin": "1.18.34" })
    expect(packageJson.scripts).toEqual({ typecheck: "tsc -b", test: "vitest run" })
    expect(packageJson.devDependencies.vitest).toBe("^4.1.12")
    expect(result.files.find((file) => file.path.endsWith("package.json"))?.status).toBe("updated")
    expect(result.testScript).toBe("test")
    expect(result.notes).toEqual([expect.stringContaining('kept your "scripts.typecheck"')])
  })

  test("beside a test script of the user's, adds the test as test:tools, which the generated files name", async () => {
    const directory = useTmpDir()
    mkdirSync(join(directory, ".opencode"))
    const packageJsonFile = join(directory, ".opencode/package.json")
    writeFileSync(packageJsonFile, JSON.stringify({ scripts: { test: "node --test" } }))
    const packageManager = { name: "bun" as const, version: "1.3.14" }
    const result = await scaffold({ name: "hello", directory, templatesDirectory, packageManager })
    expect(readJson(packageJsonFile).scripts).toEqual({
      test: "node --test",
      "test:tools": "vitest run",
      typecheck: "tsc --noEmit",
    })
    expect(result.testScript).toBe("test:tools")
    expect(result.notes).toEqual([
      `${packageJsonFile}: kept your script "test" (node --test) as it is, and added the tool's test as the "test:tools" script, which the next steps run.`,
    ])
    expect(read(join(directory, ".opencode/test/hello.test.ts"))).toContain(
      "// `bun run --cwd .opencode test:tools -u`, run from the project folder, rewrites it.",
    )
    expect(read(join(directory, ".opencode/vitest.config.js"))).toContain(
      "// `bun run --cwd .opencode test:tools --watch`, run from the project folder, watches",
    )

    // A second tool finds the script the first one added: the same script, nothing changed, no note.
    const second = await scaffold({ name: "other", directory, templatesDirectory, packageManager })
    expect(second.testScript).toBe("test:tools")
    expect(second.files.find((file) => file.path === packageJsonFile)?.status).toBe("kept")
    expect(second.notes).toEqual([])
  })

  test("without a test, a test script of the user's gets no note and there is no test script", async () => {
    const directory = useTmpDir()
    mkdirSync(join(directory, ".opencode"))
    writeFileSync(join(directory, ".opencode/package.json"), JSON.stringify({ scripts: { test: "node --test" } }))
    const result = await scaffold({ name: "hello", directory, test: false, templatesDirectory })
    expect(result.testScript).toBeUndefined()
    expect(result.notes).toEqual([])
    expect(readJson(join(directory, ".opencode/package.json")).scripts).toEqual({
      test: "node --test",
      typecheck: "tsc --noEmit",
    })
  })

  test("a second tool in the same .opencode keeps the shared files", async () => {
    const directory = useTmpDir()
    await scaffold({ name: "one", directory, templatesDirectory })
    const second = await scaffold({ name: "two", directory, templatesDirectory })
    expect(second.files.map((file) => file.status)).toEqual([
      "created",
      "created",
      "kept",
      "kept",
      "kept",
      "kept",
      "kept",
    ])
    expect(second.notes).toEqual([])
  })

  // yarn 1 alone stops an install at a dependency's engines: ini 7 (effect's, through the published
  // @opencode-ai/plugin) leaves out Node 20, which create-tool and the tests support.
  test("for yarn 1, pins ini to 6 in resolutions, with a note; for yarn 4 and npm, not", async () => {
    const yarn1 = useTmpDir()
    const packageManager = { name: "yarn" as const, version: "1.22.22" }
    const result = await scaffold({ name: "hello", directory: yarn1, templatesDirectory, packageManager })
    expect(readJson(join(yarn1, ".opencode/package.json")).resolutions).toEqual({ ini: "^6.0.0" })
    expect(result.notes).toEqual([
      `yarn 1 refuses ini 7, which @opencode-ai/plugin brings, on Node 20 (its engines): ${join(yarn1, ".opencode/package.json")} pins ini ^6.0.0 in "resolutions", which npm ignores.`,
    ])
    const plugin = await scaffold({
      name: "weather",
      location: "plugin",
      directory: yarn1,
      templatesDirectory,
      packageManager,
    })
    expect(readJson(join(yarn1, "weather/package.json")).resolutions).toEqual({ ini: "^6.0.0" })
    expect(plugin.notes).toHaveLength(1)
    for (const other of [
      { name: "yarn" as const, version: "4.9.2" },
      { name: "npm" as const, version: "11.19.1" },
    ]) {
      const directory = useTmpDir()
      await scaffold({ name: "hello", directory, templatesDirectory, packageManager: other })
      expect(readJson(join(directory, ".opencode/package.json")).resolutions, other.name).toBeUndefined()
    }
    expect(readJson(join(yarn1, ".opencode/package.json")).dependenciesMeta).toBeUndefined()
  })

  // yarn 2+ runs no dependency's build script by default and ends with "Done with warnings" for
  // esbuild and msgpackr-extract (seen with yarn 4.18.1), whose builds are not needed.
  test("for yarn 2+, declares esbuild's and msgpackr-extract's builds not needed; for yarn 1 and npm, not", async () => {
    const packageManager = { name: "yarn" as const, version: "4.18.1" }
    const notBuilt = { esbuild: { built: false }, "msgpackr-extract": { built: false } }
    const directory = useTmpDir()
    const result = await scaffold({ name: "hello", directory, templatesDirectory, packageManager })
    expect(readJson(join(directory, ".opencode/package.json")).dependenciesMeta).toEqual(notBuilt)
    expect(result.notes).toEqual([])
    await scaffold({ name: "weather", location: "plugin", directory, templatesDirectory, packageManager })
    expect(readJson(join(directory, "weather/package.json")).dependenciesMeta).toEqual(notBuilt)
    // Without a test there is no tool-tester, so no esbuild.
    const untested = useTmpDir()
    await scaffold({ name: "hello", directory: untested, templatesDirectory, packageManager, test: false })
    expect(readJson(join(untested, ".opencode/package.json")).dependenciesMeta).toEqual({
      "msgpackr-extract": { built: false },
    })
    const npm = useTmpDir()
    await scaffold({
      name: "hello",
      directory: npm,
      templatesDirectory,
      packageManager: { name: "npm", version: "11.19.1" },
    })
    expect(readJson(join(npm, ".opencode/package.json")).dependenciesMeta).toBeUndefined()
  })

  // yarn 2+ takes the nearest folder above with a yarn.lock for the project: in a yarn 4 project,
  // `yarn --cwd .opencode install` stopped with "doesn't seem to be part of the project declared
  // in", and `config set nodeLinker` rewrote the project's own .yarnrc.yml (yarn 4.18.1).
  test("for yarn 2+, a config folder gets an empty yarn.lock, kept when there is one; for yarn 1 and npm, none", async () => {
    const packageManager = { name: "yarn" as const, version: "4.18.1" }
    const directory = useTmpDir()
    writeFileSync(join(directory, "yarn.lock"), "__metadata:\n  version: 8\n")
    const result = await scaffold({ name: "hello", directory, templatesDirectory, packageManager })
    expect(read(join(directory, ".opencode/yarn.lock"))).toBe("")
    expect(result.files.find((file) => file.path.endsWith("yarn.lock"))?.status).toBe("created")
    const global = useTmpDir()
    await scaffold({ name: "hello", location: "global", globalDirectory: global, templatesDirectory, packageManager })
    expect(read(join(global, "yarn.lock"))).toBe("")
    writeFileSync(join(directory, ".opencode/yarn.lock"), "__metadata:\n  version: 8\n")
    await scaffold({ name: "other", directory, templatesDirectory, packageManager })
    expect(read(join(directory, ".opencode/yarn.lock"))).toBe("__metadata:\n  version: 8\n")
    for (const other of [
      { name: "yarn" as const, version: "1.22.22" },
      { name: "npm" as const, version: "11.19.1" },
    ]) {
      const project = useTmpDir()
      await scaffold({ name: "hello", directory: project, templatesDirectory, packageManager: other })
      expect(existsSync(join(project, ".opencode/yarn.lock")), other.name).toBe(false)
    }
  })

  test("under pnpm, names npm's commands for .opencode, or pnpm's where pnpm installed it, each with its note", async () => {
    const packageManager = { name: "pnpm" as const, version: "10.34.9" }
    const fresh = useTmpDir()
    const result = await scaffold({ name: "hello", directory: fresh, templatesDirectory, packageManager })
    expect(result.notes).toEqual([expect.stringContaining(" with npm, not pnpm: opencode runs its own npm install")])
    expect(read(join(fresh, ".opencode/test/hello.test.ts"))).toContain("// `npm test --prefix .opencode -- -u`")
    // npm stops on pnpm's node_modules: there, pnpm's commands, and how to switch.
    const installed = useTmpDir()
    mkdirSync(join(installed, ".opencode/node_modules"), { recursive: true })
    writeFileSync(join(installed, ".opencode/node_modules/.modules.yaml"), "")
    const kept = await scaffold({ name: "hello", directory: installed, templatesDirectory, packageManager })
    expect(kept.notes).toEqual([
      expect.stringMatching(
        /^pnpm installed .*node_modules, so the next steps use pnpm there: .*then install with npm\.$/,
      ),
    ])
    expect(read(join(installed, ".opencode/test/hello.test.ts"))).toContain("// `pnpm --dir .opencode test -u`")
  })

  test("run by npm, yarn 1 or bun in a .opencode that pnpm installed, writes pnpm's commands and files, with the reason", async () => {
    // None of them installs over pnpm's node_modules cleanly (config-folder-manager.ts): pnpm's commands work there.
    for (const [packageManager, why] of [
      [{ name: "npm", version: "11.19.1" }, "npm install stops on pnpm's layout"],
      [{ name: "yarn", version: "1.22.22" }, "yarn 1's install leaves pnpm's .pnpm folder behind"],
      [{ name: "bun", version: "1.3.14" }, "bun install keeps pnpm's links into .pnpm"],
    ] as const) {
      const directory = useTmpDir()
      mkdirSync(join(directory, ".opencode/node_modules"), { recursive: true })
      writeFileSync(join(directory, ".opencode/node_modules/.modules.yaml"), "")
      const result = await scaffold({ name: "hello", directory, templatesDirectory, packageManager })
      expect(result.notes, packageManager.name).toEqual([
        `pnpm installed ${join(directory, ".opencode/node_modules")}, so the next steps use pnpm there (${why}): opencode runs its own npm install in every config folder when it starts, which fails on pnpm's layout after a long wait, so opencode starts about 100 s later (docs/scaffolding.md#run-it); to start fast, delete that node_modules (and pnpm-lock.yaml), then install with npm.`,
      ])
      expect(read(join(directory, ".opencode/test/hello.test.ts"))).toContain("// `pnpm --dir .opencode test -u`")
      // No yarn fields, no yarn.lock: pnpm installs this folder, and npm, the way out the note gives, needs none.
      const packageJson = readJson(join(directory, ".opencode/package.json"))
      expect([packageJson.resolutions, packageJson.dependenciesMeta]).toEqual([undefined, undefined])
      expect(existsSync(join(directory, ".opencode/yarn.lock"))).toBe(false)
    }
    // yarn 2+'s install replaces pnpm's node_modules whole (4.9.2): its own commands and files, no note.
    const directory = useTmpDir()
    mkdirSync(join(directory, ".opencode/node_modules/.pnpm"), { recursive: true })
    const packageManager = { name: "yarn" as const, version: "4.9.2" }
    const result = await scaffold({ name: "hello", directory, templatesDirectory, packageManager })
    expect(result.notes).toEqual([])
    expect(read(join(directory, ".opencode/test/hello.test.ts"))).toContain("// `yarn --cwd .opencode test -u`")
    expect(existsSync(join(directory, ".opencode/yarn.lock"))).toBe(true)
  })

  test("keeps a pnpm-workspace.yaml the .opencode folder has", async () => {
    const directory = useTmpDir()
    mkdirSync(join(directory, ".opencode"))
    writeFileSync(join(directory, ".opencode/pnpm-workspace.yaml"), "allowBuilds:\n  esbuild: true\n")
    const result = await scaffold({ name: "hello", directory, templatesDirectory })
    expect(read(join(directory, ".opencode/pnpm-workspace.yaml"))).toBe("allowBuilds:\n  esbuild: true\n")
    expect(result.files.find((file) => file.path.endsWith("pnpm-workspace.yaml"))?.status).toBe("kept")
  })

  test("warns when the project folder given is itself a .opencode folder", async () => {
    const directory = join(useTmpDir(), ".opencode")
    const result = await scaffold({ name: "hello", directory, templatesDirectory })
    expect(result.notes).toEqual([expect.stringContaining("is itself a .opencode folder")])
  })

  test("warns when opencode's .gitignore would leave package.json out of git", async () => {
    const directory = useTmpDir()
    mkdirSync(join(directory, ".opencode"))
    const opencodeIgnore = "node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore"
    writeFileSync(join(directory, ".opencode/.gitignore"), opencodeIgnore)
    const result = await scaffold({ name: "hello", directory, templatesDirectory })
    expect(read(join(directory, ".opencode/.gitignore"))).toBe(opencodeIgnore)
    expect(result.notes).toEqual([expect.stringContaining("ignores package.json")])
  })
})

test("global puts the tool in the global config folder", async () => {
  const globalDirectory = join(useTmpDir(), "opencode")
  const result = await scaffold({ name: "hello", location: "global", globalDirectory, templatesDirectory })
  expect(result.root).toBe(globalDirectory)
  expect(files(globalDirectory)).toEqual([
    ".gitignore",
    "package.json",
    "pnpm-workspace.yaml",
    "test",
    "test/hello.test.ts",
    "tools",
    "tools/hello.ts",
    "tsconfig.json",
    "vitest.config.js",
  ])
  expect(read(join(globalDirectory, "test/hello.test.ts"))).toContain("global: true")
})

test("global, beside a test script of the user's, adds test:tools and names it in the update comment", async () => {
  const globalDirectory = useTmpDir()
  writeFileSync(join(globalDirectory, "package.json"), JSON.stringify({ scripts: { test: "node --test" } }))
  const result = await scaffold({ name: "hello", location: "global", globalDirectory, templatesDirectory })
  expect(result.testScript).toBe("test:tools")
  expect(readJson(join(globalDirectory, "package.json")).scripts["test:tools"]).toBe("vitest run")
  expect(read(join(globalDirectory, "test/hello.test.ts"))).toContain(
    "// `npm run test:tools -- -u`, run in the folder of package.json, rewrites it.",
  )
})

// yarn 4 writes .yarn/install-state.gz beside node_modules on every install (with nodeLinker:
// node-modules too): it is per machine, and git status showed it as a file to commit.
test("the .gitignore of a config folder and of a plugin package leave out yarn 2+'s install state", async () => {
  const directory = useTmpDir()
  await scaffold({ name: "hello", directory, templatesDirectory })
  await scaffold({ name: "weather", location: "plugin", directory, templatesDirectory })
  for (const file of [".opencode/.gitignore", "weather/.gitignore"]) {
    const lines = read(join(directory, file)).split("\n")
    expect(lines).toContain(".yarn/install-state.gz")
    expect(lines).toContain(".pnp.*")
    // What yarn says to commit stays in: its lockfile and settings.
    expect(lines.filter((line) => /yarn\.lock|yarnrc|^\.yarn\/?\*?$/.test(line))).toEqual([])
  }
})

test("a plugin package's test script is test: its package.json is written whole", async () => {
  const directory = useTmpDir()
  const result = await scaffold({ name: "weather", location: "plugin", directory, templatesDirectory })
  expect(result.testScript).toBe("test")
  expect(Object.keys(readJson(join(directory, "weather/package.json")).scripts)).toContain("test")
})

describe("a plugin package", () => {
  test("is a package opencode can load from npm or from its folder", async () => {
    const directory = useTmpDir()
    const result = await scaffold({ name: "@me/weather", location: "plugin", directory, templatesDirectory })
    const root = join(directory, "weather")
    expect(result.root).toBe(root)
    expect(result.toolIds).toEqual(["weather"])
    expect(files(root)).toEqual([
      ".gitignore",
      "README.md",
      "package.json",
      "pnpm-workspace.yaml",
      "src",
      "src/index.ts",
      "src/weather.ts",
      "test",
      "test/weather.test.ts",
      "tsconfig.build.json",
      "tsconfig.json",
    ])
    const packageJson = readJson(join(root, "package.json"))
    expect(packageJson).toMatchObject({
      name: "@me/weather",
      main: "./dist/index.js",
      exports: { "./server": { import: "./dist/index.js" } },
      files: ["dist"],
      dependencies: { "@opencode-ai/plugin": "^1.18.33" },
      // As a project's: Bun's types (opencode runs plugins in Bun).
      devDependencies: { "@types/bun": "^1.3.14" },
    })
    expect(packageJson).not.toHaveProperty("pnpm")
    expect(readJson(join(root, "tsconfig.json")).compilerOptions.types).toEqual(["node", "bun"])
    const entry = read(join(root, "src/index.ts"))
    expect(entry.match(/^export /gm)).toEqual(["export "])
    expect(entry).toContain("export const WeatherPlugin: Plugin")
    expect(entry).toContain("weather: tools.default,")
    expect(read(join(root, "README.md"))).toContain('"plugin": ["@me/weather"]')
    expect(read(join(root, "test/weather.test.ts"))).toContain('plugins: [folder("..")]')
  })

  // npm allows package names that are no JavaScript identifier; the entry's export must still be one.
  test.each([
    ["weather.js", "WeatherJsPlugin"],
    ["2fa", "_2faPlugin"],
    ["x.y", "XYPlugin"],
    ["my.tool-2", "MyTool2Plugin"],
    ["@me/a.b", "ABPlugin"],
  ])("named %s, exports its plugin as %s, which parses in TypeScript and JavaScript", async (name, exportName) => {
    for (const language of ["ts", "js"] as const) {
      const directory = useTmpDir()
      await scaffold({ name, location: "plugin", toolName: "x", language, directory, templatesDirectory })
      const entryFile = join(directory, name.replace(/^@[^/]*\//, ""), `src/index.${language}`)
      const entry = read(entryFile)
      expect(entry).toMatch(new RegExp(`^export const ${exportName}\\b`, "m"))
      const { diagnostics } = ts.transpileModule(entry, { fileName: entryFile, reportDiagnostics: true })
      expect(diagnostics?.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))).toEqual(
        [],
      )
    }
  })

  test("gets pnpm's settings, or a note where a pnpm workspace above holds them", async () => {
    const directory = useTmpDir()
    await scaffold({ name: "weather", location: "plugin", directory, templatesDirectory })
    const settings = read(join(directory, "weather/pnpm-workspace.yaml"))
    // pnpm 11 and later stop an install at an undecided build script; tsc's declarations name zod (TS2742).
    expect(settings).toMatch(/^allowBuilds:\n {2}esbuild: false\n {2}msgpackr-extract: false$/m)
    expect(settings).toMatch(/^publicHoistPattern:\n {2}- zod$/m)
    expect(read(join(directory, "weather/tsconfig.build.json"))).toContain('"types": ["node", "bun", "zod"]')

    // A second pnpm-workspace.yaml would cut the package out of the workspace around it.
    const monorepo = useTmpDir()
    writeFileSync(join(monorepo, "pnpm-workspace.yaml"), "packages:\n  - packages/*\n")
    const inside = await scaffold({
      name: "weather",
      location: "plugin",
      directory: join(monorepo, "packages"),
      templatesDirectory,
    })
    expect(existsSync(join(monorepo, "packages/weather/pnpm-workspace.yaml"))).toBe(false)
    expect(existsSync(join(monorepo, "packages/weather/package.json"))).toBe(true)
    expect(inside.notes).toEqual([
      `${join(monorepo, "pnpm-workspace.yaml")} is a pnpm workspace, whose settings pnpm reads for this package (its "packages" take packages/weather in); for pnpm 11 and later, give it "allowBuilds" with esbuild: false and msgpackr-extract: false, and "publicHoistPattern: [zod]" for the declarations tsc writes (docs/publishing-a-plugin.md#pnpm).`,
    ])
    // Outside its "packages", pnpm install there installs nothing for it (pnpm 10.34.9).
    writeFileSync(join(monorepo, "pnpm-workspace.yaml"), "packages:\n- packages/*\n# weather\nallowBuilds: {}\n")
    const outside = await scaffold({ name: "weather", location: "plugin", directory: monorepo, templatesDirectory })
    expect(outside.notes[0]).toContain(
      'for this package: its "packages" leave out weather: add it, or pnpm install there installs nothing for it; ',
    )
    writeFileSync(join(monorepo, "pnpm-workspace.yaml"), "packages: ['apps/*', \"weather\"]\n")
    const flow = await scaffold({
      name: "weather",
      location: "plugin",
      directory: monorepo,
      templatesDirectory,
      overwrite: true,
    })
    expect(flow.notes[0]).toContain('(its "packages" take weather in)')
    writeFileSync(join(monorepo, "pnpm-workspace.yaml"), "packages: !!seq\n")
    const unread = await scaffold({
      name: "weather",
      location: "plugin",
      directory: monorepo,
      templatesDirectory,
      overwrite: true,
    })
    expect(unread.notes[0]).toContain(
      'its "packages" must include weather, or pnpm install there installs nothing for it',
    )
  })

  // The README's commands are the next steps' ones: a pnpm user read `npm install` there.
  test("its README gives the commands of the package manager that ran create-tool", async () => {
    const directory = useTmpDir()
    const packageManager = { name: "pnpm" as const, version: "10.34.9" }
    await scaffold({ name: "weather", location: "plugin", directory, templatesDirectory, packageManager })
    const readme = read(join(directory, "weather/README.md"))
    expect(readme).toContain("```sh\npnpm install\npnpm test\n```")
    expect(readme).toContain("here first (`pnpm install`).\nBuild it too (`pnpm run build`)")
    expect(readme).not.toMatch(/\bnpm (install|test|run)/)
    await scaffold({ name: "other", location: "plugin", directory, templatesDirectory })
    expect(read(join(directory, "other/README.md"))).toContain("```sh\nnpm install\nnpm test\n```")
  })

  test("in JavaScript needs no build, and still runs preflight before publishing", async () => {
    const directory = useTmpDir()
    await scaffold({ name: "weather", location: "plugin", directory, language: "js", templatesDirectory })
    const packageJson = readJson(join(directory, "weather/package.json"))
    expect(packageJson.main).toBe("./src/index.js")
    expect(packageJson.exports["./server"]).toBe("./src/index.js")
    expect(packageJson.files).toEqual(["src"])
    expect(packageJson.scripts).toEqual({
      test: "vitest run",
      // preflight's own packages come with it (npm exec), also where tool-tester is no devDependency.
      prepublishOnly:
        "npm exec --yes --package=@opencode-ai/tool-tester --package=fast-check@^4.11.0 --package=publint@^0.3.25 --package=@arethetypeswrong/core@^0.18.5 -- tool-tester preflight",
    })
    expect(packageJson.devDependencies.typescript).toBeUndefined()
    expect(packageJson.devDependencies["@types/bun"]).toBeUndefined()
    expect(existsSync(join(directory, "weather/tsconfig.json"))).toBe(false)
  })

  test("with the python template ships its scripts", async () => {
    const directory = useTmpDir()
    const result = await scaffold({
      name: "count",
      location: "plugin",
      directory,
      template: "python",
      exports: ["words", "lines"],
      test: false,
      templatesDirectory,
    })
    expect(result.toolIds).toEqual(["count_words", "count_lines"])
    expect(readJson(join(directory, "count/package.json")).files).toEqual(["dist", "python"])
    expect(files(join(directory, "count/python"))).toEqual(["count_lines.py", "count_words.py"])
    expect(read(join(directory, "count/src/count.ts"))).toContain('new URL("../python/count_words.py"')
    expect(read(join(directory, "count/src/index.ts"))).toContain("count_words: tools.words,")
    expect(readJson(join(directory, "count/package.json")).devDependencies.vitest).toBeUndefined()
  })
})

describe("refuses", () => {
  test.each([
    [{ name: "../x" }, "INVALID_NAME"],
    [{ name: "" }, "INVALID_NAME"],
    [{ name: "my.tool" }, "INVALID_NAME"],
    [{ name: "Weather", location: "plugin" as const }, "INVALID_PACKAGE_NAME"],
    [{ name: "node_modules", location: "plugin" as const }, "INVALID_PACKAGE_NAME"],
    [{ name: "hello", template: "rust" }, "UNKNOWN_TEMPLATE"],
    [{ name: "hello", exports: ["a-b"] }, "INVALID_EXPORT_NAME"],
    [{ name: "hello", template: "python", exports: ["python"] }, "INVALID_EXPORT_NAME"],
    [{ name: "hello", description: "  " }, "INVALID_DESCRIPTION"],
    [{ name: "read" }, "BUILTIN_OVERRIDE"],
    // The tools' module src/index.ts would be the plugin's entry module.
    [{ name: "index", location: "plugin" as const }, "INVALID_NAME"],
    [{ name: "x", location: "plugin" as const, toolName: "index", language: "js" as const }, "INVALID_NAME"],
    [{ name: "x", location: "plugin" as const, toolName: "Index" }, "INVALID_NAME"],
  ])("%j with %s, writing nothing", async (options, code) => {
    const directory = useTmpDir()
    await expect(scaffold({ directory, templatesDirectory, ...options })).rejects.toMatchObject({ code })
    expect(files(directory)).toEqual([])
  })

  test("nothing for a named export of a built-in's name: todowrite_x is not todowrite", async () => {
    const result = await scaffold({ name: "todowrite", exports: ["x"], directory: useTmpDir(), templatesDirectory })
    expect(result.toolIds).toEqual(["todowrite_x"])
  })

  test("a tool id that differs from a built-in's only in case is written, with a note saying what a model's call then runs", async () => {
    const result = await scaffold({ name: "BASH", directory: useTmpDir(), templatesDirectory })
    expect(result.toolIds).toEqual(["BASH"])
    expect(result.notes).toContain(
      "Tool id BASH differs from opencode's built-in bash only in case: opencode offers both, and a model's call in any other case runs the built-in; choose another name unless that is what you mean.",
    )
    const plain = await scaffold({ name: "bashful", directory: useTmpDir(), templatesDirectory })
    expect(plain.notes.filter((note) => note.includes("only in case"))).toEqual([])
  })

  test("a relative directory", async () => {
    await expect(scaffold({ name: "hello", directory: "relative", templatesDirectory })).rejects.toMatchObject({
      code: "USAGE",
    })
  })

  test("to overwrite a file without overwrite, and overwrites with it", async () => {
    const directory = useTmpDir()
    mkdirSync(join(directory, ".opencode/tools"), { recursive: true })
    writeFileSync(join(directory, ".opencode/tools/hello.ts"), "mine")
    await expect(scaffold({ name: "hello", directory, templatesDirectory })).rejects.toMatchObject({
      code: "FILE_EXISTS",
      message: expect.stringContaining("--force"),
    })
    expect(files(join(directory, ".opencode"))).toEqual(["tools", "tools/hello.ts"])
    const result = await scaffold({ name: "hello", directory, overwrite: true, templatesDirectory })
    expect(result.files[0]).toMatchObject({ status: "overwritten" })
    expect(read(join(directory, ".opencode/tools/hello.ts"))).toContain("tool({")
  })

  test("to replace a built-in tool unless allowed", async () => {
    const directory = useTmpDir()
    const plan = await planScaffold({ name: "bash", directory, templatesDirectory })
    expect(plan.builtinOverrides).toEqual(["bash"])
    const result = await scaffold({ name: "bash", directory, overrideBuiltin: true, templatesDirectory })
    expect(result.toolIds).toEqual(["bash"])
  })

  test.each([
    [".opencode/tools/hello.ts", "move it away or choose another name"],
    [".opencode/test/hello.test.ts", "move it away or choose another name"],
    [".opencode/package.json", "move it away"],
    [".opencode/tsconfig.json", "move it away"],
  ])("a folder at %s, even with overwrite, saying so", async (folder, fix) => {
    const directory = useTmpDir()
    mkdirSync(join(directory, folder), { recursive: true })
    const before = files(directory)
    await expect(scaffold({ name: "hello", directory, overwrite: true, templatesDirectory })).rejects.toMatchObject({
      code: "FILE_EXISTS",
      message: `${join(directory, folder)} is a folder, where create-tool writes a file: ${fix}, and run again (--force replaces files only).`,
      data: { paths: [join(directory, folder)] },
    })
    expect(files(directory)).toEqual(before)
  })

  test("to update a package.json that is not JSON", async () => {
    const directory = useTmpDir()
    mkdirSync(join(directory, ".opencode"))
    writeFileSync(join(directory, ".opencode/package.json"), "{ broken")
    await expect(scaffold({ name: "hello", directory, templatesDirectory })).rejects.toMatchObject({
      code: "INVALID_PACKAGE_JSON",
    })
    expect(files(join(directory, ".opencode"))).toEqual(["package.json"])
  })
})
