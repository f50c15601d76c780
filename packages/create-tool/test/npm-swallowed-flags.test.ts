import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { parseArguments } from "../src/parse-args.ts"
import { run } from "./helpers.ts"

// `npm create tool NAME --js` without `--`: what npm itself makes of create-tool's flags. A probe
// package's bin, run by the real npm the way `npm create` runs create-tool (npm create is npm exec
// of create-<name>: the same flag parsing, checked against a registry on 127.0.0.1 with npm 11.19),
// prints the arguments and npm_config_* variables it got; create-tool reads those.

type Received = { argv: string[]; env: Record<string, string> }

/** A project with the probe installed, so npm exec finds its bin without installing anything. */
let project: string
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "create-tool-probe-"))
  const probe = join(project, "node_modules", "create-probe")
  mkdirSync(join(project, "node_modules", ".bin"), { recursive: true })
  mkdirSync(probe)
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "project", private: true }))
  writeFileSync(
    join(probe, "package.json"),
    JSON.stringify({ name: "create-probe", version: "1.0.0", bin: { "create-probe": "./bin.js" } }),
  )
  writeFileSync(
    join(probe, "bin.js"),
    `#!/usr/bin/env node
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith("npm_config_")))
process.stdout.write(JSON.stringify({ argv: process.argv.slice(2), env }))
`,
  )
  chmodSync(join(probe, "bin.js"), 0o755)
  mkdirSync(join(project, "home"))
  symlinkSync(join("..", "create-probe", "bin.js"), join(project, "node_modules", ".bin", "create-probe"))
})
afterAll(() => rmSync(project, { recursive: true, force: true }))

/**
 * What create-tool receives for `npm create tool weather FLAGS`, as npm passes it, with `home` as
 * HOME (by default an empty one: the developer's ~/.npmrc would count as the user's config).
 */
async function throughNpm(flags: string, home = join(project, "home")): Promise<Received> {
  const result = await run("bash", ["-c", `npm exec create-probe weather ${flags}`], {
    cwd: project,
    env: { HOME: home, npm_config_offline: "true", npm_config_update_notifier: "false" },
  })
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as Received
}

// Each case waits on its own npm (most of this file's time): they run at once.
describe.concurrent("npm create tool NAME FLAGS, without --", { timeout: 120_000 }, () => {
  test.each([
    [
      "--js --no-test --plugin --no-interactive --force --dir=sub --template=python --exports=add,multiply",
      {
        js: true,
        test: false,
        plugin: true,
        interactive: false,
        force: true,
        dir: "sub",
        template: "python",
        exports: ["add", "multiply"],
      },
    ],
    ["-t=shell --global", { template: "shell", global: true }],
  ])("%s is read as create-tool's", async (flags, expected) => {
    const { argv, env } = await throughNpm(flags)
    expect(parseArguments(argv, env)).toMatchObject({ name: "weather", ...expected })
  })

  test.each([
    ["--dir sub", "npm create tool NAME -- --dir VALUE"],
    ["-t shell", "npm create tool NAME -- -t VALUE"],
    ["--template python", "npm create tool NAME -- --template VALUE"],
    ["--tool-name forecast", "npm create tool NAME -- --tool-name VALUE"],
    ["--description Hi", 'npm create tool NAME -- --description "Hi"'],
  ])("%s stops with one line that shows the -- form", async (flags, form) => {
    const { argv, env } = await throughNpm(flags)
    expect(() => parseArguments(argv, env)).toThrow(expect.objectContaining({ code: "USAGE" }))
    try {
      parseArguments(argv, env)
    } catch (error) {
      const { message } = error as Error
      expect(message).not.toContain("\n")
      expect(message).toContain("put create-tool's options after --")
      expect(message).toContain(form)
    }
  })

  test("npm passes force and json from ~/.npmrc on as it passes typed flags: create-tool takes neither", async () => {
    const home = join(project, "home-with-npmrc")
    mkdirSync(home)
    writeFileSync(join(home, ".npmrc"), "force=true\njson=true\n")
    const { argv, env } = await throughNpm("", home)
    expect(env).toMatchObject({ npm_config_force: "true", npm_config_json: "true" })
    const parsed = parseArguments(argv, env)
    expect(parsed).toMatchObject({ force: false, js: false })
    // The probe passes on npm_config_* only, so without HOME the file is named by its path.
    const npmrc = join(home, ".npmrc")
    expect(parsed.npmConfigNotes.map((note) => note.text)).toEqual([
      `npm's config sets json (in ${npmrc}): create-tool does not take that as --js; for JavaScript, pass it after --: npm create tool weather -- --js`,
      `npm's config sets force (in ${npmrc}): create-tool does not take that as --force; to overwrite, pass it after --: npm create tool weather -- --force`,
    ])
    // The form those lines show.
    expect(parseArguments((await throughNpm("-- --force --js", home)).argv, env)).toMatchObject({
      force: true,
      js: true,
    })
  })

  test("with -- everything reaches create-tool as typed", async () => {
    const { argv, env } = await throughNpm("-- --js --no-test --dir sub -t shell --description Hi")
    expect(parseArguments(argv, env)).toMatchObject({
      js: true,
      test: false,
      dir: "sub",
      template: "shell",
      description: "Hi",
    })
  })
})
