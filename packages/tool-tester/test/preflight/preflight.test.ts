import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, onTestFinished, test } from "vitest"
import { escapeRegExp } from "../../src/_escape-regexp.ts"
import { jsonError, runCli, useTmpDir, writeFiles } from "../helpers.ts"
import { isRunning, killProcess } from "../support/processes.ts"
import {
  builtPlugin,
  codes,
  dependencyFreeBuiltPlugin,
  json,
  plainPlugin,
  preflightCli,
  withNpxPnpm,
  withoutPnpm,
  writePackage,
} from "./preflight-packages.ts"

// Each test packs a package with npm, installs the tarball with npm (from this user's npm cache)
// and loads it in an engine: several seconds each, more for the packages with dependencies. With
// two busy loops and other test runs beside it (load average 20 on 2 cores) the test that runs
// preflight twice took 284 s: ten minutes each.
describe("tool-tester preflight", { timeout: 600_000 }, () => {
  test("a package that passes every check: no findings, its tool ids and one call each, the same under both engines, exit 0", async () => {
    const directory = writePackage(useTmpDir(), builtPlugin("opencode-preflight-ok"))
    const { exitCode, report, stderr } = await preflightCli(directory)
    expect(report.findings, stderr).toEqual([])
    expect(exitCode).toBe(0)
    expect(report.engine?.name).toBe("bun")
    expect(report.package).toMatchObject({
      name: "opencode-preflight-ok",
      packer: "npm",
      entry: { file: "dist/index.js", field: 'exports["./server"].import' },
    })
    expect([...report.package.files].sort()).toEqual(["dist/index.d.ts", "dist/index.js", "package.json"])
    expect(report.tools).toEqual(["greet"])
    expect(report.runs).toEqual([
      {
        tool: "greet",
        args: { name: expect.any(String) },
        status: "completed",
        output: expect.stringMatching(/^Hello, .*!$/),
      },
    ])
    // The arguments come from a fixed seed: the node engine makes the same call.
    const node = await preflightCli(directory, ["--engine", "node"])
    expect(node.exitCode).toBe(0)
    expect(node.report.engine?.name).toBe("node")
    expect(node.report.findings).toEqual([])
    expect(node.report.runs).toEqual(report.runs)
  })

  test("install scripts do not run unless --run-scripts, and what they leave running is ended", async () => {
    const out = useTmpDir()
    const pidFile = path.join(out, "postinstall.pid")
    // postinstall starts an idle process that outlives it (detached, in a group of its own) and writes its id.
    const directory = leavingPostinstall("opencode-preflight-scripts", "ignore")
    const env = { PREFLIGHT_TEST_PID_FILE: pidFile }
    const quiet = await preflightCli(directory, ["--engine", "node"], env)
    expect(quiet.exitCode, quiet.stderr).toBe(0)
    expect(existsSync(pidFile)).toBe(false)
    const scripted = await preflightCli(directory, ["--engine", "node", "--run-scripts"], env)
    expect(scripted.exitCode, scripted.stderr).toBe(0)
    const pid = Number(readFileSync(pidFile, "utf8"))
    onTestFinished(() => killProcess(pid))
    expect(pid).toBeGreaterThan(0)
    expect(isRunning(pid)).toBe(false)
  })

  test("--run-scripts: a postinstall that leaves a process holding its output (server &) does not hold the install", {
    timeout: 180_000,
  }, async () => {
    const pidFile = path.join(useTmpDir(), "postinstall.pid")
    // As `server &` does: the process keeps the script's stdout and stderr.
    const directory = leavingPostinstall("opencode-preflight-server", "inherit")
    const { exitCode, stderr, report } = await preflightCli(directory, ["--engine", "node", "--run-scripts"], {
      PREFLIGHT_TEST_PID_FILE: pidFile,
    })
    const pid = Number(readFileSync(pidFile, "utf8"))
    onTestFinished(() => killProcess(pid))
    expect(exitCode, stderr).toBe(0)
    expect(isRunning(pid)).toBe(false)
    expect(codes(report)).toEqual(["SCRIPT_LEFT_RUNNING"])
    expect(report.findings[0]?.message).toContain("npm install left 1 process running")
    expect(report.tools).toEqual(["greet"])
  })

  test("a plugin whose init never ends: PLUGIN_LOAD_FAILED on its file, the file named once", async () => {
    const files = plainPlugin("opencode-preflight-init-hang")
    files["index.js"] = `export const Hangs = async () => {
  await new Promise(() => {})
}
`
    const directory = writePackage(useTmpDir(), files)
    const { exitCode, report } = await preflightCli(directory, ["--engine", "node"], {
      TOOL_TESTER_LOAD_TIMEOUT_MS: "3000",
    })
    expect(exitCode).toBe(3)
    expect(report.findings).toEqual([
      expect.objectContaining({
        code: "PLUGIN_LOAD_FAILED",
        file: path.join(directory, "index.js"),
        message:
          "its plugin function Hangs did not finish its init within 3000 ms (an await that never settles, or a loop, before it returns its hooks); opencode would wait for it forever, with no tool at all",
      }),
    ])
  })

  test("the human report names the package, entry, tools and calls, and says no problem was found", async () => {
    const directory = writePackage(useTmpDir(), plainPlugin("opencode-preflight-human"))
    const result = await runCli(["preflight", directory])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain("opencode-preflight-human@1.0.0")
    expect(result.stdout).toContain("entry   index.js (main)")
    expect(result.stdout).toContain("tools   greet")
    expect(result.stdout).toMatch(/call {4}greet \{\} completed/)
    expect(result.stdout).toContain("No problems found (2 packed files, 1 tool).")
  })

  test("a tarball of one file is counted as one file, not '1 files'", async () => {
    // "files" lists only what is missing: npm packs package.json alone.
    const { "index.js": _source, ...files } = plainPlugin("opencode-preflight-one-file", { files: ["dist"] })
    const directory = writePackage(useTmpDir(), files)
    const result = await runCli(["preflight", directory])
    expect(result.exitCode).toBe(3)
    expect(result.stdout).toMatch(/packed {2}1 file with npm: package\.json\n/)
  })

  test("the entry opencode reads is not in the tarball: ENTRY_NOT_PACKED, exit 3", async () => {
    const files = builtPlugin("opencode-preflight-unpacked")
    // "files" ships the sources, not the build: the trap of the issue.
    const manifest = { ...JSON.parse(files["package.json"]!), files: ["src"] }
    const directory = writePackage(useTmpDir(), { ...files, "package.json": json(manifest) })
    const { exitCode, report } = await preflightCli(directory)
    expect(exitCode).toBe(3)
    expect(report.findings[0]).toMatchObject({
      code: "ENTRY_NOT_PACKED",
      severity: "error",
      file: path.join(directory, "package.json"),
      message: expect.stringContaining(
        'dist/index.js, the entry opencode reads (exports["./server"].import), is not in the tarball, so users get no tools: add "dist" to "files"',
      ),
    })
    expect(report.package.files).not.toContain("dist/index.js")
    expect(report.tools).toEqual([])
  })

  test("an entry neither built nor listed in files: ENTRY_NOT_PACKED says to build first, and to list it", async () => {
    const { "dist/index.js": _built, ...files } = builtPlugin("opencode-preflight-unbuilt")
    const manifest = { ...JSON.parse(files["package.json"]!), files: ["src"] }
    const directory = writePackage(useTmpDir(), { ...files, "package.json": json(manifest) })
    const { exitCode, report } = await preflightCli(directory)
    expect(exitCode).toBe(3)
    expect(report.findings.find((finding) => finding.code === "ENTRY_NOT_PACKED")?.message).toContain(
      'is not in the tarball, so users get no tools: dist/index.js is not on disk either: build the package (a prepack script that builds makes npm publish do it), and add "dist" to "files" in package.json',
    )

    // Built and listed, but left out by an .npmignore (in a listed folder, where it overrides "files").
    const ignored = writePackage(useTmpDir(), {
      ...builtPlugin("opencode-preflight-ignored"),
      "dist/.npmignore": "index.js\n",
    })
    const second = await preflightCli(ignored)
    expect(second.report.findings.find((finding) => finding.code === "ENTRY_NOT_PACKED")?.message).toContain(
      "it is built but left out: check .npmignore",
    )
  })

  test("a package with no entry opencode reads (exports['.'] only): ENTRY_NOT_PACKED", async () => {
    // No index file either: opencode would take index.js of the folder.
    const { "index.js": source, ...files } = plainPlugin("opencode-preflight-dot-only", {
      main: undefined,
      exports: { ".": "./plugin.js" },
      files: ["plugin.js"],
    })
    const directory = writePackage(useTmpDir(), { ...files, "plugin.js": source! })
    const { exitCode, report } = await preflightCli(directory)
    expect(exitCode).toBe(3)
    expect(report.findings.find((finding) => finding.code === "ENTRY_NOT_PACKED")?.message).toContain(
      'package.json has no "main", "module" or exports["./server"]',
    )
  })

  test("a build older than its sources: STALE_BUILD, exit 3", async () => {
    // The check compares src/ with dist/: a dist/ that installs no dependency is enough.
    const directory = writePackage(useTmpDir(), dependencyFreeBuiltPlugin("opencode-preflight-stale"), {
      staleSources: true,
    })
    const { exitCode, report } = await preflightCli(directory)
    expect(exitCode).toBe(3)
    expect(report.findings).toEqual([
      {
        code: "STALE_BUILD",
        severity: "error",
        file: path.join(directory, "src/index.ts"),
        message: expect.stringContaining("dist/index.js is older than its source src/index.ts"),
        data: { stale: [{ source: "src/index.ts", built: "dist/index.js" }] },
      },
    ])
  })

  test("@opencode-ai/plugin only in devDependencies: DEV_DEPENDENCY_AT_RUNTIME, and the plugin does not load", async () => {
    const files = plainPlugin("opencode-preflight-devdep", { devDependencies: { "@opencode-ai/plugin": "^1.18.33" } })
    files["index.js"] = `import { tool } from "@opencode-ai/plugin"
export const Greeter = async () => ({
  tool: { greet: tool({ description: "Greets someone", args: {}, execute: async () => "hello" }) },
})
`
    const directory = writePackage(useTmpDir(), files)
    const { exitCode, report, stderr } = await preflightCli(directory)
    expect(exitCode).toBe(3)
    expect(report.findings).toContainEqual({
      code: "DEV_DEPENDENCY_AT_RUNTIME",
      severity: "error",
      file: path.join(directory, "package.json"),
      message: expect.stringContaining(
        'index.js imports @opencode-ai/plugin, which is only in devDependencies: npm does not install it for users, so opencode cannot load the plugin; move @opencode-ai/plugin to "dependencies"',
      ),
      data: { package: "@opencode-ai/plugin", importer: "index.js" },
    })
    // Loading it by name fails as in opencode, which cannot find the package.
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        code: "IMPORT_FAILED",
        message: expect.stringContaining("Cannot find module '@opencode-ai/plugin'"),
      }),
    )
    // The fix is in package.json: an install into the user's copy (`npm install --prefix dist ...`) fixes nothing.
    const importFailed = report.findings.find((finding) => finding.code === "IMPORT_FAILED")
    expect(importFailed?.message).not.toContain("npm install")
    expect(importFailed?.message).toContain('add @opencode-ai/plugin to "dependencies"')
    expect(report.tools).toEqual([])
    // The one failure line names the first error.
    expect(jsonError({ exitCode, stdout: "", stderr }).code).toBe(report.findings[0]?.code)
  })

  test("a package imported but declared nowhere, even one a node_modules above the temporary project holds, and a relative import left out of files: UNDECLARED_DEPENDENCY, FILE_NOT_PACKED", async () => {
    const files = plainPlugin("opencode-preflight-undeclared")
    files["index.js"] = `import { greeting } from "./greeting.js"
import padding from "left-pad-never-declared"
export const Greeter = async () => ({
  tool: { greet: { description: "Greets someone", args: {}, execute: async () => greeting + padding } },
})
`
    files["greeting.js"] = `export const greeting = "hello"\n`
    const directory = writePackage(useTmpDir(), files)
    // A node_modules in the temporary folder, above preflight's project: this machine's, not in the
    // users' install. It used to be looked up, making the finding a warning that still "resolves".
    const temporary = useTmpDir("preflight-above-")
    writeFiles(temporary, {
      "node_modules/left-pad-never-declared/package.json": json({ name: "left-pad-never-declared", main: "index.js" }),
      "node_modules/left-pad-never-declared/index.js": `module.exports = " "\n`,
    })
    const { exitCode, report } = await preflightCli(directory, [], {
      TMPDIR: temporary,
      TEMP: temporary,
      TMP: temporary,
    })
    expect(exitCode).toBe(3)
    expect(report.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: "FILE_NOT_PACKED",
          severity: "error",
          message: expect.stringContaining("index.js imports ./greeting.js, which is not in the tarball"),
        }),
        expect.objectContaining({
          code: "UNDECLARED_DEPENDENCY",
          severity: "error",
          message: expect.stringContaining(
            "index.js imports left-pad-never-declared, which package.json does not declare",
          ),
        }),
      ]),
    )
  })

  test("tool schemas from two zod copies: SECOND_ZOD_COPY, a warning (exit 0)", async () => {
    const files = plainPlugin("opencode-preflight-zods", {
      dependencies: { zod: "4.1.8", "zod-other": "npm:zod@4.1.12" },
    })
    files["index.js"] = `import { z } from "zod"
import { z as other } from "zod-other"
export const Two = async () => ({
  tool: {
    one: { description: "One", args: { a: z.string().describe("A") }, execute: async () => "one" },
    two: { description: "Two", args: { b: other.string().describe("B") }, execute: async () => "two" },
  },
})
`
    const directory = writePackage(useTmpDir(), files)
    const { exitCode, report } = await preflightCli(directory)
    expect(report.findings).toEqual([
      expect.objectContaining({
        code: "SECOND_ZOD_COPY",
        severity: "warning",
        message: expect.stringContaining("tool schemas come from 2 zod copies: zod 4.1.8"),
      }),
    ])
    expect(exitCode).toBe(0)
    expect(report.tools).toEqual(["one", "two"])
  })

  test("engines.opencode that leaves out the opencode tool-tester follows: ENGINES_OPENCODE; with --e2e the real opencode skips it too (E2E_FAILED)", async () => {
    const directory = writePackage(
      useTmpDir(),
      plainPlugin("opencode-preflight-engines", { engines: { opencode: ">=2.0.0", node: ">=20" } }),
    )
    const { exitCode, report } = await preflightCli(directory, ["--e2e"])
    expect(exitCode).toBe(3)
    expect(report.findings).toEqual([
      expect.objectContaining({
        code: "ENGINES_OPENCODE",
        severity: "error",
        message: expect.stringContaining('engines.opencode ">=2.0.0" leaves out opencode 1.18.34'),
      }),
      expect.objectContaining({
        code: "E2E_FAILED",
        severity: "error",
        message: expect.stringContaining("opencode did not offer greet from opencode-preflight-engines"),
      }),
    ])
    expect(report.e2e?.offered).not.toContain("greet")
    expect(report.e2e?.calls).toEqual([expect.objectContaining({ tool: "greet", ran: "invalid" })])
  })

  test("a plugin that offers no tool, in a package marked private: PLUGIN_NO_TOOLS and PRIVATE_PACKAGE, warnings (exit 0), and no tool ids", async () => {
    // One run for both warnings: npm publish refuses a private package, which preflight used to pass in silence.
    const files = plainPlugin("opencode-preflight-no-tools", { private: true })
    files["index.js"] = `export const Quiet = async () => ({})\n`
    const directory = writePackage(useTmpDir(), files)
    const { exitCode, report } = await preflightCli(directory)
    expect(codes(report)).toEqual(["PRIVATE_PACKAGE", "PLUGIN_NO_TOOLS"])
    expect(report.findings[0]).toEqual({
      code: "PRIVATE_PACKAGE",
      severity: "warning",
      file: path.join(directory, "package.json"),
      message:
        'package.json has "private": true, so npm publish refuses the package (EPRIVATE) and users cannot install it from npm: remove "private" from package.json when you publish it',
      data: { private: true },
    })
    expect(exitCode).toBe(0)
    expect(report.tools).toEqual([])
  })

  test("a helper export opencode would reject the module for: PLUGIN_LOAD_FAILED from loading it by name", async () => {
    const files = plainPlugin("opencode-preflight-nonfunc")
    files["index.js"] = `${files["index.js"]}export const VERSION = "1.0.0"\n`
    const directory = writePackage(useTmpDir(), files)
    const { exitCode, report } = await preflightCli(directory)
    expect(exitCode).toBe(3)
    expect(report.findings[0]).toMatchObject({
      code: "PLUGIN_LOAD_FAILED",
      message: expect.stringContaining("Plugin export is not a function"),
    })
  })

  test("a tool whose result opencode cannot send: SMOKE_RUN_FAILED, exit 3; a tool that throws is not a failure", async () => {
    const files = plainPlugin("opencode-preflight-smoke")
    files["index.js"] = `export const Tools = async () => ({
  tool: {
    nothing: { description: "Returns nothing", args: {}, execute: async () => undefined },
    picky: { description: "Throws", args: {}, execute: async () => { throw new Error("city is required") } },
  },
})
`
    const directory = writePackage(useTmpDir(), files)
    const { exitCode, report } = await preflightCli(directory)
    expect(exitCode).toBe(3)
    expect(report.findings).toEqual([
      expect.objectContaining({
        code: "SMOKE_RUN_FAILED",
        severity: "error",
        message: expect.stringMatching(
          // Pasted where preflight ran (the suite's folder, not the package's): the package's folder.
          new RegExp(
            `^nothing \\(from opencode-preflight-smoke\\) called with \\{\\}: .*: try it with npx @opencode-ai/tool-tester run nothing --plugin ${escapeRegExp(directory)}$`,
          ),
        ),
      }),
    ])
    expect(report.runs).toEqual([
      expect.objectContaining({
        tool: "nothing",
        status: "error",
        error: expect.objectContaining({ code: "TOOL_BAD_RESULT" }),
      }),
      expect.objectContaining({ tool: "picky", status: "error", output: "city is required" }),
    ])
  })

  test("publint's errors on the packed package.json: PUBLINT, exit 3", async () => {
    const directory = writePackage(
      useTmpDir(),
      plainPlugin("opencode-preflight-publint", { module: "./missing.js", exports: { "./server": "./index.js" } }),
    )
    const { exitCode, report } = await preflightCli(directory)
    expect(exitCode).toBe(3)
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        code: "PUBLINT",
        severity: "error",
        message: expect.stringContaining("publint: pkg.module is ./missing.js but the file does not exist."),
      }),
    )
  })

  test("types TypeScript cannot find through exports: TYPES_WRONG from arethetypeswrong, a warning", async () => {
    const files = plainPlugin("opencode-preflight-types", {
      types: "./types/index.d.ts",
      exports: { ".": { import: "./index.js" }, "./server": "./index.js" },
      files: ["index.js", "types"],
    })
    files["types/index.d.ts"] = "export declare const Greeter: () => Promise<unknown>\n"
    const directory = writePackage(useTmpDir(), files)
    const { exitCode, report } = await preflightCli(directory)
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        code: "TYPES_WRONG",
        severity: "warning",
        message: expect.stringContaining("arethetypeswrong: Could not find types for opencode-preflight-types"),
      }),
    )
    expect(exitCode).toBe(0)
  })

  test("workspace: and catalog: versions without pnpm: WORKSPACE_PROTOCOL, npm would ship them", async () => {
    const directory = writePackage(
      useTmpDir(),
      plainPlugin("opencode-preflight-workspace", { dependencies: { "some-helper": "workspace:*", zod: "catalog:" } }),
    )
    const { exitCode, report } = await preflightCli(directory, [], withoutPnpm())
    expect(exitCode).toBe(3)
    expect(report.findings[0]).toMatchObject({
      code: "WORKSPACE_PROTOCOL",
      severity: "error",
      message: expect.stringContaining(
        'package.json has pnpm workspace versions (dependencies.some-helper "workspace:*", dependencies.zod "catalog:") and pnpm was not found: npm publish would ship them as they are',
      ),
    })
    expect(report.package.packer).toBe("npm")
  })

  test("a catalog: version with pnpm at hand: packed with pnpm, which writes the real version", async () => {
    const workspace = useTmpDir()
    writeFiles(workspace, {
      "pnpm-workspace.yaml": "packages:\n  - plugin\ncatalog:\n  left-pad: 1.3.0\n",
      "package.json": json({ name: "workspace-root", private: true }),
    })
    const directory = writePackage(
      path.join(workspace, "plugin"),
      plainPlugin("opencode-preflight-catalog", { devDependencies: { "left-pad": "catalog:" } }),
    )
    const { exitCode, report } = await preflightCli(directory, [], withNpxPnpm())
    expect(report.findings).toEqual([])
    expect(exitCode).toBe(0)
    expect(report.package.packer).toBe("pnpm")
  })

  test("--e2e loads the install in the real opencode, which offers and calls each tool", async () => {
    const directory = writePackage(useTmpDir(), builtPlugin("opencode-preflight-e2e"))
    const { exitCode, report } = await preflightCli(directory, ["--e2e"])
    expect(report.findings).toEqual([])
    expect(exitCode).toBe(0)
    expect(report.e2e?.exitCode).toBe(0)
    expect(report.e2e?.offered).toContain("greet")
    expect(report.e2e?.calls).toEqual([expect.objectContaining({ tool: "greet", ran: "greet", status: "completed" })])
  })

  test("a folder without package.json is a usage error (exit 1)", async () => {
    const result = await runCli(["preflight", useTmpDir(), "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toMatchObject({
      code: "PATH_NOT_FOUND",
      message: expect.stringContaining("has no package.json: preflight checks a plugin package"),
    })
  })
})

/**
 * A plugin package whose postinstall starts a process that outlives it (detached, in a group of
 * its own, idle for ten minutes), with the script's output (`inherit`, as `server &`) or without,
 * and writes that process's id to PREFLIGHT_TEST_PID_FILE.
 */
function leavingPostinstall(name: string, stdio: "ignore" | "inherit"): string {
  const postinstall = `const { spawn } = require("node:child_process")
const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 600000)"], { detached: true, stdio: "${stdio}" })
child.unref()
require("node:fs").writeFileSync(process.env.PREFLIGHT_TEST_PID_FILE, String(child.pid))
`
  const files = plainPlugin(name, {
    files: ["index.js", "postinstall.cjs"],
    scripts: { postinstall: "node postinstall.cjs" },
  })
  return writePackage(useTmpDir(), { ...files, "postinstall.cjs": postinstall })
}
