import path from "node:path"
import { describe, expect, test } from "vitest"
import { invocationDirectory, projectDirectory } from "../../src/cli/project-directory.ts"
import { runCli, useTmpDir, writeFiles } from "../helpers.ts"

const weather = `export default { description: "The weather in a city", args: {}, async execute() { return "sunny" } }\n`

describe("the project a command tests without --dir", { timeout: 60_000 }, () => {
  test("is the working directory, or the parent of a .opencode folder, with a notice", () => {
    expect(projectDirectory("/p", undefined)).toEqual({ directory: "/p" })
    expect(projectDirectory("/p/.opencode", "sub")).toEqual({ directory: "/p/.opencode/sub" })
    expect(projectDirectory("/p/.opencode", ".")).toEqual({ directory: "/p/.opencode" })
    const moved = projectDirectory("/p/.opencode", undefined)
    expect(moved.directory).toBe("/p")
    expect(moved.notice).toContain("testing the project /p")
  })

  // yarn 2+ sets INIT_CWD and PWD to its --cwd folder (yarn 4.18.1): `yarn --cwd .opencode
  // tool-tester e2e --init`, typed in the project, wrote e2e.json into .opencode, not where npm and
  // pnpm write it, and `--script e2e.json` was read from there.
  test("relative paths are read from the project folder under yarn 2+, whose INIT_CWD is its --cwd folder", () => {
    const opencode = path.resolve("/p/.opencode")
    const env = (version: string) => ({
      npm_config_user_agent: `yarn/${version} npm/? node/v20.20.2 linux x64`,
      INIT_CWD: opencode,
      PWD: opencode,
    })
    expect(invocationDirectory(opencode, env("4.18.1"))).toBe(path.dirname(opencode))
    expect(invocationDirectory(opencode, env("1.22.22"))).toBe(opencode)
    expect(invocationDirectory(opencode, { INIT_CWD: path.dirname(opencode) })).toBe(path.dirname(opencode))
  })

  test("from inside .opencode, list tests the project that folder belongs to and says so on stderr", async () => {
    const project = useTmpDir()
    writeFiles(project, { ".opencode/tools/weather.ts": weather, ".opencode/package.json": "{}\n" })
    const result = await runCli(["list", "--no-global", "--engine", "node"], { cwd: path.join(project, ".opencode") })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain("weather")
    expect(result.stderr.split("\n")[0]).toBe(
      `tool-tester: testing the project ${project}, which this .opencode folder belongs to (pass --dir . to test the folder itself)`,
    )
  })

  test("run from inside .opencode runs the tool with the project as its working directory", async () => {
    const project = useTmpDir()
    writeFiles(project, {
      ".opencode/tools/where.ts": `export default { description: "Where", args: {}, async execute() { return process.cwd() } }\n`,
    })
    const result = await runCli(["run", "where", "--no-global", "--engine", "node", "--json"], {
      cwd: path.join(project, ".opencode"),
    })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ output: project })
    // --json keeps stderr for the failure line only.
    expect(result.stderr).toBe("")
  })

  test("paths print the same from the project (npx) and from .opencode (pnpm, yarn and bun start the bin there)", async () => {
    const project = useTmpDir()
    writeFiles(project, { ".opencode/tools/weather.ts": weather, ".opencode/package.json": "{}\n" })
    const shown = path.join(".opencode", "tools", "weather.ts")
    for (const cwd of [project, path.join(project, ".opencode")]) {
      const listed = await runCli(["list", "--no-global", "--engine", "node"], { cwd })
      expect(listed.stdout, cwd).toContain(shown)
      const ran = await runCli(["run", "weather", "--no-global", "--engine", "node"], { cwd })
      expect(ran.stdout + ran.stderr, cwd).not.toMatch(/(^|\s)tools[\\/]weather\.ts/)
    }
  })

  test("--dir . inside .opencode means that folder itself, with no notice", async () => {
    const project = useTmpDir()
    writeFiles(project, { ".opencode/tools/weather.ts": weather })
    const result = await runCli(["list", "--dir", ".", "--no-global", "--engine", "node", "--json"], {
      cwd: path.join(project, ".opencode"),
    })
    expect(result.exitCode).toBe(0)
    expect(result.stderr).toBe("")
  })
})
