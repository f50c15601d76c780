import { execFileSync, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, test } from "vitest"
import { shellWord } from "../../src/_shell-quote.ts"
import { EXTRAS, installCommand, requireExtras } from "../../src/extras.ts"
import { ToolTesterError } from "../../src/errors.ts"

const packageDirectory = fileURLToPath(new URL("../..", import.meta.url))
const manifest = JSON.parse(readFileSync(path.join(packageDirectory, "package.json"), "utf8"))
const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function tmp(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "extras-"))
  folders.push(folder)
  return folder
}

function write(file: string, content: string | object): void {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content))
}

/** A tool-tester installed at `relative` (under `root`), with this package's peer ranges; returns a module file inside it. */
function installToolTester(root: string, relative: string): { directory: string; module: string } {
  const directory = path.join(root, relative)
  write(path.join(directory, "package.json"), {
    name: "@opencode-ai/tool-tester",
    peerDependencies: manifest.peerDependencies,
  })
  const module = path.join(directory, "dist", "cli", "main.js")
  write(module, "")
  return { directory, module }
}

function thrown(run: () => void): ToolTesterError {
  try {
    run()
  } catch (error) {
    if (ToolTesterError.isInstance(error)) return error
    throw error
  }
  throw new Error("nothing was thrown")
}

describe("requireExtras", () => {
  test("names each missing package and the npm command that installs them into .opencode", () => {
    const project = tmp()
    write(path.join(project, ".opencode", "package.json"), {})
    write(path.join(project, ".opencode", "package-lock.json"), {})
    const { module } = installToolTester(project, ".opencode/node_modules/@opencode-ai/tool-tester")
    const error = thrown(() => requireExtras("preflight", { cwd: project, from: module }))
    expect(error.code).toBe("EXTRA_NOT_INSTALLED")
    expect(error.message).toBe(
      "tool-tester preflight needs fast-check, publint, @arethetypeswrong/core, which are not installed with tool-tester; install with: npm install --prefix .opencode -D fast-check@4.11.0 publint@0.3.25 @arethetypeswrong/core@0.18.5",
    )
    expect(error.data).toEqual({
      command: "preflight",
      missing: ["fast-check", "publint", "@arethetypeswrong/core"],
      install: "npm install --prefix .opencode -D fast-check@4.11.0 publint@0.3.25 @arethetypeswrong/core@0.18.5",
    })
  })

  test("passes once the packages are installed where Node finds them from tool-tester, and names a version out of range", () => {
    const project = tmp()
    write(path.join(project, ".opencode", "package.json"), {})
    const { module } = installToolTester(project, ".opencode/node_modules/@opencode-ai/tool-tester")
    write(path.join(project, ".opencode", "node_modules", "hono", "package.json"), { version: "4.13.19" })
    write(path.join(project, ".opencode", "node_modules", "@hono", "node-server", "package.json"), {
      version: "1.0.0",
    })
    const error = thrown(() => requireExtras("dev", { cwd: path.join(project, ".opencode"), from: module }))
    expect(error.message).toBe(
      "tool-tester dev needs @hono/node-server ^2.1.9 (1.0.0 is installed), which is not installed with tool-tester; install with: npm install -D @hono/node-server@2.1.9",
    )
    write(path.join(project, ".opencode", "node_modules", "@hono", "node-server", "package.json"), {
      version: "2.2.0",
    })
    expect(() => requireExtras("dev", { cwd: project, from: module })).not.toThrow()
  })

  test.skipIf(process.platform === "win32")(
    "a package.json that is a FIFO is not read (the read would wait for a writer): the package counts as not installed (POSIX: mkfifo)",
    async () => {
      const project = tmp()
      write(path.join(project, ".opencode", "package.json"), {})
      const { module } = installToolTester(project, ".opencode/node_modules/@opencode-ai/tool-tester")
      const manifestFile = path.join(project, ".opencode", "node_modules", "fast-check", "package.json")
      mkdirSync(path.dirname(manifestFile), { recursive: true })
      execFileSync("mkfifo", [manifestFile])
      // Should the FIFO be read anyway, this writer ends the wait after a while with an installed
      // fast-check, so the test fails on the assertion rather than hanging its worker.
      const writer = spawn(process.execPath, [
        "-e",
        `setTimeout(() => require("node:fs").writeFileSync(${JSON.stringify(manifestFile)}, '{"version":"4.11.0"}'), 5000)`,
      ])
      try {
        const error = thrown(() => requireExtras("fuzz", { cwd: project, from: module }))
        expect(error.data).toMatchObject({ missing: ["fast-check"] })
      } finally {
        writer.kill("SIGKILL")
      }
    },
  )

  test("the command is relative to where the user's shell is (INIT_CWD), when a package manager ran the CLI elsewhere", () => {
    const project = tmp()
    write(path.join(project, ".opencode", "package.json"), {})
    write(path.join(project, ".opencode", "pnpm-lock.yaml"), "")
    const { module } = installToolTester(project, ".opencode/node_modules/@opencode-ai/tool-tester")
    const error = thrown(() =>
      requireExtras("fuzz", { cwd: path.join(project, ".opencode"), env: { INIT_CWD: project }, from: module }),
    )
    expect(error.data?.["install"]).toBe("pnpm --dir .opencode add -D fast-check@4.11.0")
  })

  test("bun run --cwd .opencode, which sets no INIT_CWD, gets the command from the project folder, as the docs run it", () => {
    const project = tmp()
    write(path.join(project, ".opencode", "package.json"), {})
    write(path.join(project, ".opencode", "bun.lock"), "")
    const { module } = installToolTester(project, ".opencode/node_modules/@opencode-ai/tool-tester")
    const env = { npm_config_user_agent: "bun/1.3.14 npm/? node/v24.3.0 linux x64" }
    const error = thrown(() => requireExtras("fuzz", { cwd: path.join(project, ".opencode"), env, from: module }))
    expect(error.data?.["install"]).toBe("bun add --cwd .opencode -D fast-check@4.11.0")
  })

  // yarn 4.18.1 said `yarn add -D ...`, which, pasted in the project folder, is no project there (or,
  // in a yarn project, adds to the project's own package.json).
  test("yarn 2+, whose INIT_CWD is its --cwd folder, gets the command from the project folder", () => {
    const project = tmp()
    const opencode = path.join(project, ".opencode")
    write(path.join(opencode, "package.json"), {})
    write(path.join(opencode, "yarn.lock"), "")
    const { module } = installToolTester(project, ".opencode/node_modules/@opencode-ai/tool-tester")
    const env = { npm_config_user_agent: "yarn/4.18.1 npm/? node/v20.20.2 linux x64", INIT_CWD: opencode }
    const error = thrown(() => requireExtras("fuzz", { cwd: opencode, env, from: module }))
    expect(error.data?.["install"]).toBe("yarn --cwd .opencode add -D fast-check@4.11.0")
  })

  test("this repository's own tool-tester has them all (devDependencies)", () => {
    for (const command of Object.keys(EXTRAS) as (keyof typeof EXTRAS)[])
      expect(() => requireExtras(command, { cwd: packageDirectory })).not.toThrow()
  })

  test("every extra is an optional peer dependency, and the plugin template installs preflight's", () => {
    const names = [...new Set(Object.values(EXTRAS).flat())]
    for (const name of names) {
      expect(manifest.peerDependenciesMeta[name], name).toEqual({ optional: true })
      expect(manifest.dependencies[name], name).toBeUndefined()
    }
    const plugin = JSON.parse(
      readFileSync(path.join(packageDirectory, "..", "..", "templates", "_plugin", "package.json"), "utf8"),
    )
    for (const name of EXTRAS.preflight) {
      expect(plugin.devDependencies[name], name).toBe(manifest.peerDependencies[name])
      expect(plugin.scripts.prepublishOnly).toContain(`--package=${name}@${manifest.peerDependencies[name]}`)
    }
  })
})

describe("installCommand, for the layout tool-tester was installed in", () => {
  const specs = ["fast-check@4.11.0"]

  test.each([
    ["pnpm-lock.yaml", "pnpm --dir .opencode add -D fast-check@4.11.0"],
    ["yarn.lock", "yarn --cwd .opencode add -D fast-check@4.11.0"],
    ["bun.lock", "bun add --cwd .opencode -D fast-check@4.11.0"],
    ["package-lock.json", "npm install --prefix .opencode -D fast-check@4.11.0"],
  ])("with %s: %s", (lockFile, expected) => {
    const project = tmp()
    write(path.join(project, ".opencode", "package.json"), {})
    write(path.join(project, ".opencode", lockFile), "")
    const { directory } = installToolTester(project, ".opencode/node_modules/@opencode-ai/tool-tester")
    expect(installCommand(directory, specs, project)).toBe(expected)
  })

  test("pnpm's store: the project is where the first node_modules starts", () => {
    const project = tmp()
    write(path.join(project, ".opencode", "package.json"), {})
    const { directory } = installToolTester(
      project,
      ".opencode/node_modules/.pnpm/@opencode-ai+tool-tester@0.1.0/node_modules/@opencode-ai/tool-tester",
    )
    expect(installCommand(directory, specs, project)).toBe("pnpm --dir .opencode add -D fast-check@4.11.0")
  })

  test("a folder with a space is quoted for the user's shell, and a global install (no package.json) gets npm -g", () => {
    const project = tmp()
    write(path.join(project, "my tools", "package.json"), {})
    const { directory } = installToolTester(project, "my tools/node_modules/@opencode-ai/tool-tester")
    const quoted = shellWord("my tools")
    expect(quoted).not.toBe("my tools")
    expect(installCommand(directory, specs, project)).toBe(`npm install --prefix ${quoted} -D fast-check@4.11.0`)
    const global = installToolTester(tmp(), "lib/node_modules/@opencode-ai/tool-tester")
    expect(installCommand(global.directory, specs, project)).toBe("npm install -g fast-check@4.11.0")
  })
})
