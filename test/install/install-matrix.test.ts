// A newcomer's first minutes with each package manager: the packed packages installed into a fresh
// opencode project, then the README's "Use it" lines run there, from the project root.
import { readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, inject, test } from "vitest"
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
  /** `npm create tool greet` with the packed create-tool, run in the project root. */
  scaffold: (tarball: string) => Command
  /** Installs .opencode/package.json's dependencies, run in the project root. */
  install: Command
  /** Runs an installed bin of .opencode, run in the project root. */
  exec: (...args: string[]) => Command
  /** The scaffolded test, run in the project root. */
  test: Command
  env?: Record<string, string>
  /** What the newcomer adds to .opencode/package.json for this manager to succeed, if anything. */
  resolutions?: Record<string, string>
}

const npx = (...args: string[]): Command => ["npx", "--prefix", ".opencode", ...args]
const npmCreate = (tarball: string): Command => [
  "npm",
  "exec",
  "--yes",
  `--package=${tarball}`,
  "--",
  "create-tool",
  "greet",
  "--no-interactive",
]
const yarn = ["npx", "-y", "yarn@1.22.22"] as const
const bun = opencodeBinary()

const managers: Manager[] = [
  {
    name: "npm",
    scaffold: npmCreate,
    install: ["npm", "install", "--prefix", ".opencode"],
    exec: npx,
    test: ["npm", "test", "--prefix", ".opencode"],
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
  },
  {
    name: "yarn (classic)",
    scaffold: npmCreate,
    install: [...yarn, "--cwd", ".opencode", "install"],
    exec: npx,
    test: [...yarn, "--cwd", ".opencode", "test"],
    // vite 8.4 (vitest 4's dependency) lists an optional dependency, napi-windows-process-start-time,
    // that the registry does not have (404 on 2026-11-30): npm, pnpm and bun skip an optional
    // dependency they cannot find, yarn 1 stops. Pinned to the vite this repository tests with.
    resolutions: { vite: rootDevDependency("vite") },
  },
  {
    name: "bun",
    scaffold: npmCreate,
    install: [bun, "install", "--cwd", ".opencode"],
    exec: npx,
    test: [bun, "run", "--cwd", ".opencode", "test"],
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

        await step(manager.scaffold(tarballs["create-tool"] as string), installTimeout)
        useTarballs(path.join(project, ".opencode", "package.json"), tarballs, manager.resolutions)
        await step(manager.install, installTimeout)

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
      },
      testTimeout,
    )
  }
})

// --- internal ---

/** Points the scaffolded dependencies on this repository's packages at their tarballs (they are not published yet). */
function useTarballs(
  manifestFile: string,
  tarballs: Record<string, string>,
  resolutions?: Record<string, string>,
): void {
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8"))
  if (resolutions) manifest.resolutions = resolutions
  for (const field of ["dependencies", "devDependencies"]) {
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
