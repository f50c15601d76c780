// A newcomer's first minutes with each package manager: the packed packages installed into a fresh
// opencode project, then the README's "Use it" lines run there, from the project root.
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, inject, test } from "vitest"
import { startLocalRegistry } from "./_local-registry.ts"
import { opencodeBinary } from "./_opencode-bun.ts"
import { pnpm, root } from "./_packages.ts"
import { cleanEnv, describeRun, type RunResult, run, useTmpDir } from "./_run.ts"

// Installing from the npm registry on a loaded 2-core machine: minutes, not seconds.
const installTimeout = 600_000
const commandTimeout = 180_000
const testTimeout = 1_200_000

type Command = [string, ...string[]]

type Manager = {
  name: string
  /**
   * This manager's `create tool greet` with the packed create-tool, run in the project root: so
   * create-tool sees this manager's user agent and writes its commands.
   */
  scaffold: (tarball: string) => Command
  /**
   * `yarn create` (yarn 1) takes create-tool from a registry only: a local one serving the tarballs
   * (everything else from the npm registry), with yarn's global folders inside the test's home.
   */
  scaffoldFromRegistry?: boolean
  /** Installs .opencode/package.json's dependencies, run in the project root. */
  install: Command
  /** Runs an installed bin of .opencode, run in the project root. */
  exec: (...args: string[]) => Command
  /** The scaffolded test, run in the project root. */
  test: Command
  /** The scaffolded test with vitest's `-u`, as the docs give it for this manager (scaffolding.md). */
  updateSnapshots: string
  /** Runs tool-tester through this manager (so its printed commands are this manager's), from the project root. */
  toolTester: (...args: string[]) => Command
  /** The words a printed command starts with for this manager, as this test runs them. */
  words: Record<string, readonly string[]>
  env?: Record<string, string>
  /** What the newcomer adds to .opencode/package.json for this manager to succeed, if anything. */
  resolutions?: Record<string, string>
}

const npx = (...args: string[]): Command => ["npx", "--prefix", ".opencode", ...args]
/** `npm create tool ...ARGS` with the packed create-tool. */
const npmCreateWith = (tarball: string, ...args: string[]): Command => [
  "npm",
  "exec",
  "--yes",
  `--package=${tarball}`,
  "--",
  "create-tool",
  ...args,
]
const npmCreate = (tarball: string): Command => npmCreateWith(tarball, "greet", "--no-interactive")
const yarn = ["npx", "-y", "yarn@1.22.22"] as const
const bun = opencodeBinary()

const managers: Manager[] = [
  {
    name: "npm",
    scaffold: npmCreate,
    install: ["npm", "install", "--prefix", ".opencode"],
    exec: npx,
    test: ["npm", "test", "--prefix", ".opencode"],
    updateSnapshots: "npm test --prefix .opencode -- -u",
    toolTester: (...args) => npx("tool-tester", ...args),
    words: {},
  },
  {
    name: "pnpm",
    scaffold: (tarball) => [
      pnpm[0],
      ...pnpm[1],
      `--package=${tarball}`,
      "dlx",
      "create-tool",
      "greet",
      "--no-interactive",
    ],
    install: [pnpm[0], ...pnpm[1], "--dir", ".opencode", "install"],
    exec: (...args) => [pnpm[0], ...pnpm[1], "--dir", ".opencode", "exec", ...args],
    test: [pnpm[0], ...pnpm[1], "--dir", ".opencode", "test"],
    updateSnapshots: "pnpm --dir .opencode test -u",
    toolTester: (...args) => [pnpm[0], ...pnpm[1], "--dir", ".opencode", "exec", "tool-tester", ...args],
    words: { pnpm: [pnpm[0], ...pnpm[1]] },
  },
  {
    name: "yarn (classic)",
    scaffold: () => [...yarn, "create", "tool", "greet", "--no-interactive"],
    scaffoldFromRegistry: true,
    install: [...yarn, "--cwd", ".opencode", "install"],
    exec: npx,
    test: [...yarn, "--cwd", ".opencode", "test"],
    updateSnapshots: "yarn --cwd .opencode test -u",
    toolTester: (...args) => [...yarn, "--cwd", ".opencode", "tool-tester", ...args],
    words: { yarn },
    // vite 8.4 (vitest 4's dependency) lists an optional dependency, napi-windows-process-start-time,
    // that the registry does not have (404 on 2026-11-30): npm, pnpm and bun skip an optional
    // dependency they cannot find, yarn 1 stops. Pinned to the vite this repository tests with.
    resolutions: { vite: rootDevDependency("vite") },
  },
  {
    name: "bun",
    // `bun create tool greet` runs `bunx create-tool greet`.
    scaffold: (tarball) => [bun, "x", "--package", tarball, "create-tool", "greet", "--no-interactive"],
    install: [bun, "install", "--cwd", ".opencode"],
    exec: npx,
    test: [bun, "run", "--cwd", ".opencode", "test"],
    updateSnapshots: "bun run --cwd .opencode test -u",
    toolTester: (...args) => [bun, "run", "--cwd", ".opencode", "tool-tester", ...args],
    words: { bun: [bun] },
    env: { BUN_BE_BUN: "1" },
  },
]

// One manager at a time: each install already keeps both cores busy.
describe.sequential("the packed packages in a fresh opencode project", () => {
  for (const manager of managers) {
    test(
      `install with ${manager.name}, then list, inspect, run and test the scaffolded tool from the project root`,
      async () => {
        const tarballs = inject("tarballs")
        const project = useTmpDir("install-project-")
        const home = useTmpDir("install-home-")
        const env = cleanEnv({ XDG_CONFIG_HOME: path.join(home, ".config"), ...manager.env })
        const step = async (
          [command, ...args]: Command,
          timeout = commandTimeout,
          stepEnv = env,
        ): Promise<RunResult> => {
          const result = await run(command, args, { cwd: project, timeout, env: stepEnv })
          expect(result.status, `${command} ${args.join(" ")}: ${describeRun(result)}`).toBe(0)
          return result
        }

        if (manager.scaffoldFromRegistry) {
          const registry = await startLocalRegistry(tarballs)
          try {
            await step(manager.scaffold(tarballs["create-tool"] as string), installTimeout, {
              ...env,
              npm_config_registry: registry.url,
              YARN_GLOBAL_FOLDER: path.join(home, "yarn-global"),
              YARN_PREFIX: path.join(home, "yarn-prefix"),
              YARN_CACHE_FOLDER: path.join(home, "yarn-cache"),
            })
          } finally {
            await registry.close()
          }
        } else await step(manager.scaffold(tarballs["create-tool"] as string), installTimeout)
        useTarballs(path.join(project, ".opencode", "package.json"), tarballs, manager.resolutions)
        const installed = await step(manager.install, installTimeout)
        // No warning about esbuild's install script (pnpm's "Ignored build scripts", Bun's "Blocked").
        expect(installed.stdout + installed.stderr).not.toMatch(/Ignored build scripts|Blocked \d+ postinstall/)

        expect((await step(manager.exec("tool-tester", "list"))).stdout).toContain("greet")
        const schema = await step(manager.exec("tool-tester", "schema", "--model", "gemini-2.5-pro"))
        expect(schema.stdout).toContain("greet")
        expect(schema.stdout).toContain("Who to greet")
        expect((await step(manager.exec("tool-tester", "run", "greet", "name=Ada"))).stdout).toContain("Hello, Ada!")
        await step(manager.exec("tool-tester", "doctor"))
        await step(manager.test, installTimeout)

        // The bin as this manager links it, run as a shell runs it (a Node script: its first line
        // names node), with the bun engine.
        const bin = path.join(project, ".opencode", "node_modules", ".bin", "tool-tester")
        const bunRun = ["run", "greet", "name=Ada", "--engine-binary", opencodeBinary()]
        expect((await step([bin, ...bunRun])).stdout).toContain("Hello, Ada!")

        // The generated test fails on a change of what the model reads; the update its comment names,
        // this manager's as the docs give it, pasted, rewrites the inline snapshot, and nothing
        // lands outside .opencode.
        const testFile = path.join(project, ".opencode", "test", "greet.test.ts")
        const update = /\/\/ `([^`]+)`, run from the project folder, rewrites it\./.exec(
          readFileSync(testFile, "utf8"),
        )?.[1]
        expect(update).toBe(manager.updateSnapshots)
        const toolFile = path.join(project, ".opencode", "tools", "greet.ts")
        writeFileSync(toolFile, readFileSync(toolFile, "utf8").replace("Hello, $", "Hi, $"))
        const [testCommand, ...testArgs] = manager.test
        const stale = await run(testCommand, testArgs, { cwd: project, timeout: installTimeout, env })
        expect(stale.status, describeRun(stale)).not.toBe(0)
        await step(pasted(update!, manager), installTimeout)
        expect(readFileSync(testFile, "utf8")).toContain("Hi, Ada!")
        await step(manager.test, installTimeout)

        // fuzz needs fast-check, which a project does not get with tool-tester: the command fuzz
        // prints for it, pasted, installs it into .opencode; then fuzz's replay line, pasted, makes
        // the same calls again.
        const fuzzArgs = ["fuzz", "greet", "--runs", "20"]
        const [fuzzCommand, ...fuzzRest] = manager.toolTester(...fuzzArgs)
        const withoutExtra = await run(fuzzCommand, fuzzRest, { cwd: project, timeout: commandTimeout, env })
        expect(withoutExtra.status, describeRun(withoutExtra)).toBe(7)
        const installExtra = /install with: (.+) \[EXTRA_NOT_INSTALLED\]$/m.exec(withoutExtra.stderr)?.[1]
        expect(installExtra, withoutExtra.stderr).toBeDefined()
        await step(pasted(installExtra!, manager), installTimeout)
        const fuzzed = await step(manager.toolTester(...fuzzArgs))
        const replay = /^replay: (.+)$/m.exec(fuzzed.stdout)?.[1]
        expect(replay, fuzzed.stdout).toMatch(/ fuzz greet .*--seed \d+ --runs 20$/)
        const replayed = await step(pasted(replay!, manager))
        // The same seed, the same calls: the same summary line ("greet  no failure found  20 calls, seed S").
        expect(replayed.stdout.split("\n")[0]).toBe(fuzzed.stdout.split("\n")[0])
        expect(readdirSync(project).sort()).toEqual([".opencode"])

        // Commands tool-tester prints, run through this manager, pasted as printed from the project root.
        const init = await step(manager.toolTester("e2e", "--init"))
        expect(init.stdout).toContain("Wrote e2e.json: one call to greet,")
        const runIt = /^Run it: (.+)$/m.exec(init.stdout)?.[1]
        expect(runIt, init.stdout).toBeDefined()
        // e2e runs the real opencode, which a user has installed: on PATH here.
        const withOpencode = { ...env, PATH: `${path.dirname(opencodeBinary())}${path.delimiter}${env["PATH"] ?? ""}` }
        expect((await step(pasted(runIt!, manager), installTimeout, withOpencode)).stdout).toContain("greet")
        const help = await step(manager.toolTester("doctor", "--help"))
        const example = help.stdout.split("\nExamples:\n")[1]?.split("\n")[0]?.trim()
        expect(example, help.stdout).toMatch(/ doctor$/)
        await step(pasted(example!, manager))
      },
      testTimeout,
    )
  }
})

// A plugin package as publishing-a-plugin.md makes one: scaffolded, its printed next steps pasted,
// then built and checked by preflight as that page runs them before publishing. With npm only:
// preflight packs and installs with npm whichever manager starts it (docs/cli.md#preflight), and
// installing the package's development dependencies (TypeScript, vitest, publint,
// arethetypeswrong...) once more with each manager adds minutes per manager on this machine for
// nothing preflight does differently; starting the bin through each manager is checked above.
test(
  "a scaffolded plugin package: its next steps, then build and preflight as publishing-a-plugin.md runs them, with npm",
  async () => {
    const tarballs = inject("tarballs")
    const folder = useTmpDir("install-plugin-")
    const home = useTmpDir("install-home-")
    const env = cleanEnv({ XDG_CONFIG_HOME: path.join(home, ".config") })
    const step = async ([command, ...args]: Command, cwd: string, timeout = commandTimeout): Promise<RunResult> => {
      const result = await run(command, args, { cwd, timeout, env })
      expect(result.status, `${command} ${args.join(" ")}: ${describeRun(result)}`).toBe(0)
      return result
    }

    const created = await step(
      npmCreateWith(tarballs["create-tool"] as string, "opencode-weather", "--plugin", "--no-interactive"),
      folder,
      installTimeout,
    )
    // The package depends on the published @opencode-ai/plugin, as a user's does; only the
    // development dependencies on this repository's unpublished packages point at their tarballs.
    useTarballs(path.join(folder, "opencode-weather", "package.json"), tarballs, undefined, ["devDependencies"])
    const nextSteps = created.stdout
      .split("Next steps:\n")[1]
      ?.split("\n\n")[0]
      ?.split("\n")
      .map((line) => line.trim())
    expect(nextSteps, created.stdout).toEqual([
      "cd opencode-weather",
      "npm install",
      "npm test",
      expect.stringMatching(/^npx @opencode-ai\/tool-tester run weather --plugin \. --dir \. /),
    ])
    const pluginFolder = path.join(folder, "opencode-weather")
    for (const line of nextSteps!.slice(1)) await step(line.split(" ") as Command, pluginFolder, installTimeout)

    // publishing-a-plugin.md: `npm run build && npx @opencode-ai/tool-tester preflight`.
    await step(["npm", "run", "build"], pluginFolder, installTimeout)
    const preflight = await step(["npx", "@opencode-ai/tool-tester", "preflight"], pluginFolder, installTimeout)
    expect(preflight.stdout).toMatch(/^tools\s+weather$/m)
    expect(preflight.stdout).toMatch(/No problems found/)
  },
  testTimeout,
)

// --- internal ---

/** A printed command line as this test runs it: its first word (pnpm, yarn, bun) as the manager is run here. */
function pasted(line: string, manager: Manager): Command {
  const [first, ...rest] = line.split(" ") as [string, ...string[]]
  const words = manager.words[first]
  return words === undefined ? [first, ...rest] : [...(words as [string, ...string[]]), ...rest]
}

/** Points the scaffolded dependencies on this repository's packages at their tarballs (they are not published yet). */
function useTarballs(
  manifestFile: string,
  tarballs: Record<string, string>,
  resolutions?: Record<string, string>,
  fields = ["dependencies", "devDependencies"],
): void {
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8"))
  if (resolutions) manifest.resolutions = resolutions
  for (const field of fields) {
    for (const name of Object.keys(manifest[field] ?? {})) {
      const tarball = tarballs[name]
      if (tarball !== undefined) manifest[field][name] = `file:${tarball}`
    }
  }
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`)
}

function rootDevDependency(name: string): string {
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"))
  return manifest.devDependencies[name]
}
