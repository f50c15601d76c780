import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import { npmConfigSource } from "../src/npm-config.ts"
import { runCli, useTmpDir } from "./helpers.ts"

// npm passes its settings from ~/.npmrc, a project's .npmrc and the environment on as it passes a
// flag typed on its command line (npm_config_force=true: test/npm-swallowed-flags.test.ts shows it
// with the real npm). Those are not create-tool's flags: force=true kept in an .npmrc must not
// overwrite the user's files. Here create-tool runs with the variables npm 11 sets.

/** A project with `.npmrc` (when given), and the environment npm gives create-tool in it. */
function underNpm(settings: { projectNpmrc?: string; userNpmrc?: string; variables?: Record<string, string> }) {
  const cwd = useTmpDir()
  const home = useTmpDir("create-tool-home-")
  if (settings.projectNpmrc !== undefined) writeFileSync(join(cwd, ".npmrc"), settings.projectNpmrc)
  if (settings.userNpmrc !== undefined) writeFileSync(join(home, ".npmrc"), settings.userNpmrc)
  const env = {
    HOME: home,
    npm_config_user_agent: "npm/11.19.1 node/v20.20.2 linux x64 workspaces/false",
    npm_config_local_prefix: cwd,
    npm_config_userconfig: join(home, ".npmrc"),
    npm_config_global_prefix: join(home, "global"),
    npm_config_globalconfig: join(home, "global/etc/npmrc"),
    ...settings.variables,
  }
  return { cwd, home, env }
}

/** A tool file of the user's, edited after create-tool wrote it. */
function editedTool(cwd: string): string {
  const file = join(cwd, ".opencode/tools/hello.ts")
  mkdirSync(join(cwd, ".opencode/tools"), { recursive: true })
  writeFileSync(file, "mine")
  return file
}

const forceNote =
  /^! npm's config sets force \(in .*\): create-tool does not take that as --force; to overwrite, pass it after --: npm create tool hello -- --force\n/

describe("a setting of npm's config is not taken as a typed flag", () => {
  test("force=true in the project's .npmrc overwrites nothing: FILE_EXISTS, as without it, and the -- form", async () => {
    const { cwd, env } = underNpm({ projectNpmrc: "force=true\n", variables: { npm_config_force: "true" } })
    const file = editedTool(cwd)
    const run = await runCli(["hello"], { cwd, env })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(forceNote)
    expect(run.stderr).toContain(`(in ${join(cwd, ".npmrc")})`)
    expect(run.stderr).toMatch(/\[FILE_EXISTS\]\n$/)
    expect(readFileSync(file, "utf8")).toBe("mine")

    // The form the line shows: after --, npm passes --force on as typed.
    const typed = await runCli(["hello", "--force"], { cwd, env })
    expect(typed.code, typed.stderr).toBe(0)
    expect(readFileSync(file, "utf8")).not.toBe("mine")
  })

  test("force=true in ~/.npmrc replaces no built-in tool: BUILTIN_OVERRIDE, as without it", async () => {
    const { cwd, env } = underNpm({ userNpmrc: "; mine\nforce = true\n", variables: { npm_config_force: "true" } })
    const run = await runCli(["bash"], { cwd, env })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain("(in ~/.npmrc)")
    expect(run.stderr).toMatch(/\[BUILTIN_OVERRIDE\]\n$/)
  })

  test("NPM_CONFIG_FORCE in the environment overwrites nothing", async () => {
    const { cwd, env } = underNpm({ variables: { NPM_CONFIG_FORCE: "true", npm_config_force: "true" } })
    const file = editedTool(cwd)
    const run = await runCli(["hello"], { cwd, env })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain("(NPM_CONFIG_FORCE in the environment)")
    expect(readFileSync(file, "utf8")).toBe("mine")
  })

  test("json=true in ~/.npmrc (npm's expansion of --js) still writes TypeScript, and says how to get JavaScript", async () => {
    const { cwd, env } = underNpm({ userNpmrc: "json=true\n", variables: { npm_config_json: "true" } })
    const run = await runCli(["hello"], { cwd, env })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain("TypeScript")
    expect(run.stderr).toBe(
      "! npm's config sets json (in ~/.npmrc): create-tool does not take that as --js; for JavaScript, pass it after --: npm create tool hello -- --js\n",
    )
  })

  test("--force typed on npm's command line, with nothing in its config, still overwrites, without a word", async () => {
    const { cwd, env } = underNpm({ userNpmrc: "json=true\n", variables: { npm_config_force: "true" } })
    const file = editedTool(cwd)
    const run = await runCli(["hello"], { cwd, env })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toBe("")
    expect(readFileSync(file, "utf8")).not.toBe("mine")
  })

  test("force=true where nothing is in the way says nothing", async () => {
    const { cwd, env } = underNpm({ projectNpmrc: "force=true\n", variables: { npm_config_force: "true" } })
    const run = await runCli(["hello"], { cwd, env })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toBe("")
  })
})

describe("npmConfigSource reads npmrc files as npm's parser does", () => {
  test.each([
    ["force=true", "force"],
    ["FORCE = true", "force"],
    ['"force"=true', "force"],
    ["force", "force"],
    ["tool-name=x", "tool_name"],
    ["exports[]=a", "exports"],
  ])("%s sets %s", (line, key) => {
    const { env } = underNpm({ projectNpmrc: `${line}\n` })
    expect(npmConfigSource(key, env)).toMatch(/^in /)
  })

  test.each([
    ["; force=true", "a comment"],
    ["# force=true", "a comment"],
    ["[section]\nforce=true", "in a section"],
    ["forced=true", "another key"],
  ])("%j sets nothing: %s", (text) => {
    const { env } = underNpm({ projectNpmrc: `${text}\n` })
    expect(npmConfigSource("force", env)).toBeUndefined()
  })
})
