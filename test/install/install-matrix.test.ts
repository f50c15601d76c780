// A newcomer's first minutes with each package manager: the packed packages installed into a fresh
// opencode project, then the README's "Use it" lines run there, from the project root.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { startLocalRegistry } from "./_local-registry.ts"
import { opencodeBinary } from "./_opencode-bun.ts"
import { root } from "./_packages.ts"
import { cleanEnv, describeRun, type RunResult, run, useTmpDir } from "./_run.ts"

// Installing from the npm registry on a loaded 2-core machine: minutes, not seconds.
const installTimeout = 600_000
const commandTimeout = 180_000
const testTimeout = 1_200_000

type Command = [string, ...string[]]

type Manager = {
  name: string
  /**
   * This manager's `create tool ARGS` with the packed create-tool: so create-tool sees this
   * manager's user agent and writes its commands.
   */
  scaffold: (tarball: string, args: string[]) => Command
  /** create-tool comes from a registry only (yarn 1's `yarn create`): see scaffold(). */
  scaffoldFromRegistry?: boolean
  /** Installs .opencode/package.json's dependencies, run in the project root. */
  install: Command
  /** Runs an installed bin of .opencode, run in the project root. */
  exec: (...args: string[]) => Command
  /** The scaffolded test, run in the project root. */
  test: Command
  /** The scaffolded test with vitest's `-u`, as the docs give it for this manager (scaffolding.md). */
  updateSnapshots: string
  /**
   * Beside a test script of the user's in .opencode/package.json, which create-tool keeps: the test
   * command it prints, and the update the test's comment names, for the script it adds (test:tools).
   */
  ownTestScript: { test: string; updateSnapshots: string }
  /** Runs tool-tester through this manager (so its printed commands are this manager's), from the project root. */
  toolTester: (...args: string[]) => Command
  /** The words a printed command starts with for this manager, as this test runs them. */
  words: Record<string, readonly string[]>
  env?: Record<string, string>
  /** What the newcomer adds to .opencode/package.json for this manager to succeed, if anything. */
  resolutions?: Record<string, string>
  /**
   * In a plugin package's folder: a script (`npm run`) and the installed tool-tester, as
   * create-tool's next steps print them; undefined when the plugin flow cannot pass with this
   * manager yet (the reason is given where it is left undefined).
   */
  inPackage?: { run: string; toolTester: string }
}

const npx = (...args: string[]): Command => ["npx", "--no", "--prefix", ".opencode", ...args]
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
// yarn 1 and pnpm as a newcomer has them: installed once, for every row, into a folder of this
// file's (on PATH for their rows, as a global install puts them), and run from there. `npx -y
// pnpm@...` per command started npm and had it resolve the version again each time: ~1 CPU-s a
// command, 57 commands (this file: ~300 CPU-s before, ~250 after).
const managersFolder = mkdtempSync(path.join(os.tmpdir(), "install-managers-"))
const managersBin = path.join(managersFolder, "node_modules", ".bin")
const yarn = [path.join(managersBin, "yarn")] as const
// The pnpm a newcomer installs today (the registry's latest on 2026-12-01), not the 10.x this
// repository builds with: pnpm 11 and later read settings from pnpm-workspace.yaml only, and stop an
// install at a build script that no setting allows or denies.
const newcomerPnpm = [path.join(managersBin, "pnpm")] as const
const withManagersOnPath = { PATH: `${managersBin}${path.delimiter}${process.env["PATH"] ?? ""}` }
const bun = opencodeBinary()

const managers: Manager[] = [
  {
    name: "npm",
    scaffold: (tarball, args) => npmCreateWith(tarball, ...args),
    install: ["npm", "install", "--prefix", ".opencode"],
    exec: npx,
    test: ["npm", "test", "--prefix", ".opencode"],
    updateSnapshots: "npm test --prefix .opencode -- -u",
    ownTestScript: {
      test: "npm run test:tools --prefix .opencode",
      updateSnapshots: "npm run test:tools --prefix .opencode -- -u",
    },
    toolTester: (...args) => npx("tool-tester", ...args),
    words: {},
    // publishing-a-plugin.md: `npm run build && npx @opencode-ai/tool-tester preflight`.
    inPackage: { run: "npm run", toolTester: "npx @opencode-ai/tool-tester" },
  },
  {
    name: "pnpm",
    scaffold: (tarball, args) => [...newcomerPnpm, `--package=${tarball}`, "dlx", "create-tool", ...args],
    install: [...newcomerPnpm, "--dir", ".opencode", "install"],
    exec: (...args) => [...newcomerPnpm, "--dir", ".opencode", "exec", ...args],
    test: [...newcomerPnpm, "--dir", ".opencode", "test"],
    // Scaffolded into a fresh .opencode, whose commands are npm's under pnpm (opencode's own npm
    // install there fails slowly on pnpm's layout); this row installs it with pnpm all the same, and
    // the second tool, in a .opencode that pnpm installed, gets pnpm's commands (npm's stop there).
    updateSnapshots: "npm test --prefix .opencode -- -u",
    ownTestScript: {
      test: "pnpm --dir .opencode run test:tools",
      updateSnapshots: "pnpm --dir .opencode run test:tools -u",
    },
    toolTester: (...args) => [...newcomerPnpm, "--dir", ".opencode", "exec", "tool-tester", ...args],
    words: { pnpm: newcomerPnpm },
    env: withManagersOnPath,
    inPackage: { run: "pnpm run", toolTester: "pnpm exec tool-tester" },
  },
  {
    name: "yarn (classic)",
    scaffold: (_tarball, args) => [...yarn, "create", "tool", ...args],
    scaffoldFromRegistry: true,
    install: [...yarn, "--cwd", ".opencode", "install"],
    exec: npx,
    test: [...yarn, "--cwd", ".opencode", "test"],
    updateSnapshots: "yarn --cwd .opencode test -u",
    ownTestScript: {
      test: "yarn --cwd .opencode run test:tools",
      updateSnapshots: "yarn --cwd .opencode run test:tools -u",
    },
    toolTester: (...args) => [...yarn, "--cwd", ".opencode", "tool-tester", ...args],
    words: { yarn },
    env: withManagersOnPath,
    inPackage: { run: "yarn run", toolTester: "yarn tool-tester" },
    // vite 8.4 (vitest 4's dependency) lists an optional dependency, napi-windows-process-start-time,
    // that the registry does not have (404 on 2026-11-30): npm, pnpm and bun skip an optional
    // dependency they cannot find, yarn 1 stops. Pinned to the vite this repository tests with.
    // (The published @opencode-ai/plugin brings effect's ini ^7.0.0, whose engines leave out Node
    // 20, which yarn 1 refuses: create-tool, run by yarn 1, pins ini 6 in "resolutions" itself.)
    resolutions: { vite: rootDevDependency("vite") },
  },
  {
    name: "bun",
    // `bun create tool greet` runs `bunx create-tool greet`.
    scaffold: (tarball, args) => [bun, "x", "--package", tarball, "create-tool", ...args],
    install: [bun, "install", "--cwd", ".opencode"],
    exec: npx,
    test: [bun, "run", "--cwd", ".opencode", "test"],
    updateSnapshots: "bun run --cwd .opencode test -u",
    ownTestScript: {
      test: "bun run --cwd .opencode test:tools",
      updateSnapshots: "bun run --cwd .opencode test:tools -u",
    },
    toolTester: (...args) => [bun, "run", "--cwd", ".opencode", "tool-tester", ...args],
    words: { bun: [bun] },
    env: { BUN_BE_BUN: "1" },
    inPackage: { run: "bun run", toolTester: "bun run tool-tester" },
  },
]

beforeAll(async () => {
  const installed = await run("npm", ["install", "--prefix", managersFolder, "pnpm@12.23.0", "yarn@1.22.22"], {
    cwd: managersFolder,
    timeout: installTimeout,
    env: cleanEnv(),
  })
  expect(installed.status, describeRun(installed)).toBe(0)
}, installTimeout)
afterAll(() => rmSync(managersFolder, { recursive: true, force: true }))

// One manager at a time: each install already keeps both cores busy.
describe.sequential("the packed packages in a fresh opencode project", () => {
  for (const manager of managers) {
    test(
      `install with ${manager.name}, then list, inspect, run and test the scaffolded tool from the project root, then a second tool beside a test script of the user's`,
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

        await scaffold(manager, ["greet", "--no-interactive"], { cwd: project, env, home })
        useTarballs(path.join(project, ".opencode", "package.json"), tarballs, manager.resolutions)
        const installed = await step(manager.install, installTimeout)
        // No warning about esbuild's install script (pnpm's "Ignored build scripts", Bun's "Blocked").
        expect(installed.stdout + installed.stderr).not.toMatch(/Ignored build scripts|Blocked \d+ postinstall/)

        expect((await step(manager.exec("tool-tester", "list"))).stdout).toContain("greet")
        const schema = await step(manager.exec("tool-tester", "schema", "--model", "gemini-2.5-pro"))
        expect(schema.stdout).toContain("greet")
        expect(schema.stdout).toContain("The text the tool works on")
        expect((await step(manager.exec("tool-tester", "run", "greet", "input=hello"))).stdout).toContain(
          "greet received: hello",
        )
        await step(manager.exec("tool-tester", "doctor"))
        await step(manager.test, installTimeout)

        // The bin as this manager links it, run as a shell runs it (a Node script: its first line
        // names node), with the bun engine.
        const bin = path.join(project, ".opencode", "node_modules", ".bin", "tool-tester")
        const bunRun = ["run", "greet", "input=hello", "--engine-binary", opencodeBinary()]
        expect((await step([bin, ...bunRun])).stdout).toContain("greet received: hello")

        // The generated test fails on a change of what the model reads; the update its comment names,
        // this manager's as the docs give it, pasted, rewrites the inline snapshot, and nothing
        // lands outside .opencode.
        const testFile = path.join(project, ".opencode", "test", "greet.test.ts")
        const update = /\/\/ `([^`]+)`, run from the project folder, rewrites it\./.exec(
          readFileSync(testFile, "utf8"),
        )?.[1]
        expect(update).toBe(manager.updateSnapshots)
        const toolFile = path.join(project, ".opencode", "tools", "greet.ts")
        writeFileSync(toolFile, readFileSync(toolFile, "utf8").replace("received: $", "got: $"))
        const [testCommand, ...testArgs] = manager.test
        const stale = await run(testCommand, testArgs, { cwd: project, timeout: installTimeout, env })
        expect(stale.status, describeRun(stale)).not.toBe(0)
        await step(pasted(update!, manager), installTimeout)
        expect(readFileSync(testFile, "utf8")).toContain("greet got: hello")
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
        expect(replay, fuzzed.stdout).toMatch(/ fuzz greet .*--seed \d+ --runs 20 --timeout \d+$/)
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

        await besideOwnTestScript(manager, { project, env, home })
      },
      testTimeout,
    )

    // A plugin package as publishing-a-plugin.md makes one, with this manager: scaffolded, its
    // printed next steps pasted, then built and checked by preflight as that page runs them before
    // publishing (preflight packs and installs with npm whichever manager starts it).
    const inPackage = manager.inPackage
    if (inPackage === undefined) continue
    test(
      `a plugin package scaffolded with ${manager.name}: its next steps pasted, then build and preflight`,
      async () => {
        const tarballs = inject("tarballs")
        const folder = useTmpDir("install-plugin-")
        const home = useTmpDir("install-home-")
        const env = cleanEnv({ XDG_CONFIG_HOME: path.join(home, ".config"), ...manager.env })
        const pluginFolder = path.join(folder, "opencode-weather")
        const step = async (command: Command, timeout = commandTimeout): Promise<RunResult> => {
          const result = await run(command[0], command.slice(1), { cwd: pluginFolder, timeout, env })
          expect(result.status, `${command.join(" ")}: ${describeRun(result)}`).toBe(0)
          return result
        }

        const created = await scaffold(manager, ["opencode-weather", "--plugin", "--no-interactive"], {
          cwd: folder,
          env,
          home,
        })
        // The package depends on the published @opencode-ai/plugin, as a user's does; only the
        // development dependencies on this repository's unpublished packages point at their tarballs.
        useTarballs(path.join(pluginFolder, "package.json"), tarballs, manager.resolutions, ["devDependencies"])
        const nextSteps = created.stdout
          .split("Next steps:\n")[1]
          ?.split("\n\n")[0]
          ?.split("\n")
          .map((line) => line.trim())
        expect(nextSteps?.[0], created.stdout).toBe("cd opencode-weather")
        const runLine = `${inPackage.toolTester} run weather --plugin . --dir . `
        expect(nextSteps?.at(-1)?.slice(0, runLine.length), created.stdout).toBe(runLine)
        const [install, ...rest] = nextSteps!.slice(1)
        const installed = await step(pasted(install!, manager), installTimeout)
        // No warning about esbuild's install script (pnpm's "Ignored build scripts", Bun's "Blocked").
        expect(installed.stdout + installed.stderr).not.toMatch(/Ignored build scripts|Blocked \d+ postinstall/)
        for (const line of rest) await step(pasted(line, manager), installTimeout)

        await step(pasted(`${inPackage.run} build`, manager), installTimeout)
        const preflight = await step(pasted(`${inPackage.toolTester} preflight`, manager), installTimeout)
        expect(preflight.stdout).toMatch(/^tools\s+weather$/m)
        expect(preflight.stdout).toMatch(/No problems found/)
      },
      testTimeout,
    )
  }
})

// --- internal ---

/**
 * Runs this manager's `create tool ARGS` in `cwd` and checks it succeeds. `yarn create` (yarn 1)
 * takes create-tool from a registry only: a local one serves the tarballs (everything else from the
 * npm registry), with yarn's global folders inside the test's home.
 */
async function scaffold(
  manager: Manager,
  args: string[],
  options: { cwd: string; env: Record<string, string | undefined>; home: string },
): Promise<RunResult> {
  const tarballs = inject("tarballs")
  const [command, ...rest] = manager.scaffold(tarballs["create-tool"] as string, args)
  const registry = manager.scaffoldFromRegistry ? await startLocalRegistry(tarballs) : undefined
  try {
    const env =
      registry === undefined
        ? options.env
        : {
            ...options.env,
            npm_config_registry: registry.url,
            YARN_GLOBAL_FOLDER: path.join(options.home, "yarn-global"),
            YARN_PREFIX: path.join(options.home, "yarn-prefix"),
            YARN_CACHE_FOLDER: path.join(options.home, "yarn-cache"),
          }
    const result = await run(command, rest, { cwd: options.cwd, timeout: installTimeout, env })
    expect(result.status, `${command} ${rest.join(" ")}: ${describeRun(result)}`).toBe(0)
    return result
  } finally {
    await registry?.close()
  }
}

/**
 * A test script of the user's in .opencode/package.json, which create-tool keeps: a second tool
 * scaffolded into the project (installed already, so no fresh install per manager) gets its test
 * under test:tools, and the test command create-tool prints and the update the test's comment
 * names, pasted with this manager, run vitest (not the user's script), which passes, fails on a
 * change of what the model reads, and rewrites the snapshot; the user's script stays theirs.
 */
async function besideOwnTestScript(
  manager: Manager,
  { project, env, home }: { project: string; env: Record<string, string | undefined>; home: string },
): Promise<void> {
  const projectEntries = readdirSync(project).sort()
  const manifestFile = path.join(project, ".opencode", "package.json")
  const userTest = `node -e "console.log('own tests of the user'); process.exit(3)"`
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8"))
  manifest.scripts = { ...manifest.scripts, test: userTest }
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`)

  const created = await scaffold(manager, ["shout", "--no-interactive"], { cwd: project, env, home })
  expect(JSON.parse(readFileSync(manifestFile, "utf8")).scripts).toMatchObject({
    test: userTest,
    "test:tools": "vitest run",
  })
  expect(created.stdout).toContain('kept your script "test"')
  const nextSteps = created.stdout
    .split("Next steps:\n")[1]
    ?.split("\n\n")[0]
    ?.split("\n")
    .map((line) => line.trim())
  const [install, testLine] = nextSteps ?? []
  expect(testLine, created.stdout).toBe(manager.ownTestScript.test)
  const testFile = path.join(project, ".opencode", "test", "shout.test.ts")
  const update = /\/\/ `([^`]+)`, run from the project folder, rewrites it\./.exec(readFileSync(testFile, "utf8"))?.[1]
  expect(update).toBe(manager.ownTestScript.updateSnapshots)

  // The scaffold added its dependencies again as ranges of the published packages.
  useTarballs(manifestFile, inject("tarballs"), manager.resolutions)
  const pastedRun = (line: string) => {
    const [command, ...args] = pasted(line, manager)
    return run(command, args, { cwd: project, timeout: installTimeout, env })
  }
  const installed = await pastedRun(install!)
  expect(installed.status, describeRun(installed)).toBe(0)
  const tested = await pastedRun(testLine!)
  expect(tested.status, describeRun(tested)).toBe(0)
  // greet's two tests and shout's two.
  expect(tested.stdout, describeRun(tested)).toMatch(/Tests +4 passed/)
  expect(tested.stdout + tested.stderr).not.toContain("own tests of the user")

  const toolFile = path.join(project, ".opencode", "tools", "shout.ts")
  writeFileSync(toolFile, readFileSync(toolFile, "utf8").replace("received: $", "got: $"))
  const stale = await pastedRun(testLine!)
  expect(stale.status, describeRun(stale)).not.toBe(0)
  expect(stale.stdout, describeRun(stale)).toMatch(/Tests +1 failed/)
  const updated = await pastedRun(update!)
  expect(updated.status, describeRun(updated)).toBe(0)
  expect(readFileSync(testFile, "utf8")).toContain("shout got: hello")
  const retested = await pastedRun(testLine!)
  expect(retested.status, describeRun(retested)).toBe(0)

  // The user's script is still theirs, and this manager's plain test runs it.
  const userRun = await run(manager.test[0], manager.test.slice(1), { cwd: project, timeout: commandTimeout, env })
  expect(userRun.status, describeRun(userRun)).not.toBe(0)
  expect(userRun.stdout + userRun.stderr).toContain("own tests of the user")
  // Nothing landed outside .opencode.
  expect(readdirSync(project).sort()).toEqual(projectEntries)
}

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
  // Beside what create-tool wrote there (yarn 1's ini).
  if (resolutions) manifest.resolutions = { ...manifest.resolutions, ...resolutions }
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
