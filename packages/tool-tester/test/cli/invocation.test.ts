import path from "node:path"
import { describe, expect, test } from "vitest"
import { shellWord, userShell } from "../../src/_shell-quote.ts"
import { toolTesterCommand } from "../../src/cli/invocation.ts"

// The commands tool-tester prints start with the words that run this same bin from where the user
// is: never a bare `tool-tester` (not on PATH) nor `npx tool-tester` for a bin not installed there
// (npm would fetch whatever package holds that unscoped name).
const project = path.resolve("/work/app")
const installed = (folder: string, ...rest: string[]) =>
  path.join(folder, "node_modules", ...rest, "@opencode-ai", "tool-tester", "bin.js")
const agent = (name: string) => ({ npm_config_user_agent: `${name}/1.0.0 node/v20.20.0 linux x64` })

describe("toolTesterCommand", () => {
  test.each([
    ["npm", "npx --no --prefix .opencode tool-tester"],
    ["pnpm", "pnpm --dir .opencode exec tool-tester"],
    ["yarn", "yarn --cwd .opencode tool-tester"],
    ["bun", "bun run --cwd .opencode tool-tester"],
  ])(
    "installed in .opencode (the kit's layout), run with %s: the form the docs run from the project folder",
    (name, expected) => {
      const opencode = path.join(project, ".opencode")
      const bin = installed(opencode)
      // npx leaves the working folder at the project; pnpm, yarn and bun move into .opencode.
      expect(toolTesterCommand({ cwd: project, env: agent(name), bin })).toBe(expected)
      expect(toolTesterCommand({ cwd: opencode, env: agent(name), bin })).toBe(expected)
    },
  )

  test.each([
    ["npm", "npx --no --prefix ../app/.opencode tool-tester"],
    ["pnpm", "pnpm --dir ../app/.opencode exec tool-tester"],
    ["yarn", "yarn --cwd ../app/.opencode tool-tester"],
  ])("typed outside the project folder (%s passes INIT_CWD): the install folder from there", (name, expected) => {
    const opencode = path.join(project, ".opencode")
    const bin = installed(opencode)
    const elsewhere = path.resolve("/work/other")
    const env = { ...agent(name), INIT_CWD: elsewhere }
    const shown = expected.replace("../app/.opencode", shellWord(path.join("..", "app", ".opencode"), userShell({})))
    // npx leaves the working folder where the user is; pnpm and yarn move into .opencode.
    expect(toolTesterCommand({ cwd: elsewhere, env, bin })).toBe(shown)
    expect(toolTesterCommand({ cwd: opencode, env, bin })).toBe(shown)
    // Bun sets no INIT_CWD: one it passes on is older (an npm script's), not where bun was typed.
    expect(toolTesterCommand({ cwd: opencode, env: { ...agent("bun"), INIT_CWD: elsewhere }, bin })).toBe(
      "bun run --cwd .opencode tool-tester",
    )
    // Nor does a bin started directly: the INIT_CWD it has is older.
    expect(toolTesterCommand({ cwd: opencode, env: { INIT_CWD: elsewhere }, bin })).toBe(
      "npx --no --prefix .opencode tool-tester",
    )
    // Typed in the project folder, as the docs do: the usual form.
    expect(toolTesterCommand({ cwd: opencode, env: { ...env, INIT_CWD: project }, bin })).toContain(" .opencode ")
  })

  // yarn 2+ moves into its --cwd folder first and sets INIT_CWD to it (yarn 4.18.1): e2e --init's
  // "Run it" read `yarn tool-tester e2e ...`, which the project folder answers with "No project found".
  test("yarn 2+, whose INIT_CWD is its --cwd folder: the form the docs run from the project folder", () => {
    const opencode = path.join(project, ".opencode")
    const bin = installed(opencode)
    const yarn = (version: string) => ({
      npm_config_user_agent: `yarn/${version} npm/? node/v20.20.2 linux x64`,
      INIT_CWD: opencode,
    })
    expect(toolTesterCommand({ cwd: opencode, env: yarn("4.18.1"), bin })).toBe("yarn --cwd .opencode tool-tester")
    // yarn 1 sets where it was typed: typed inside .opencode, the command runs from there.
    expect(toolTesterCommand({ cwd: opencode, env: yarn("1.22.22"), bin })).toBe("yarn tool-tester")
  })

  test("pnpm's store inside node_modules/.pnpm is the same install folder", () => {
    const bin = installed(path.join(project, ".opencode"), ".pnpm", "@opencode-ai+tool-tester@0.1.0", "node_modules")
    expect(toolTesterCommand({ cwd: project, env: agent("pnpm"), bin })).toBe("pnpm --dir .opencode exec tool-tester")
  })

  test("installed in the working folder itself: the scoped name, which npx runs from there without fetching", () => {
    expect(toolTesterCommand({ cwd: project, env: {}, bin: installed(project) })).toBe("npx @opencode-ai/tool-tester")
    expect(toolTesterCommand({ cwd: project, env: agent("pnpm"), bin: installed(project) })).toBe(
      "pnpm exec tool-tester",
    )
  })

  test("a one-off download or a checkout: the scoped package, with the manager's download command", () => {
    const npx = path.join(
      path.resolve("/home/u/.npm/_npx/0a1b2c"),
      "node_modules",
      "@opencode-ai",
      "tool-tester",
      "bin.js",
    )
    expect(toolTesterCommand({ cwd: project, env: agent("npm"), bin: npx })).toBe("npx @opencode-ai/tool-tester")
    const checkout = path.resolve("/src/kit/packages/tool-tester/bin.js")
    expect(toolTesterCommand({ cwd: project, env: agent("pnpm"), bin: checkout })).toBe(
      "pnpm dlx @opencode-ai/tool-tester",
    )
    expect(toolTesterCommand({ cwd: project, env: agent("bun"), bin: checkout })).toBe("bunx @opencode-ai/tool-tester")
    expect(toolTesterCommand({ cwd: project, env: {} })).toBe("npx @opencode-ai/tool-tester")
  })

  test("a folder name with a space is quoted for the user's shell", () => {
    const bin = installed(path.join(project, "my tools"))
    const quoted = shellWord("my tools", userShell({}))
    expect(quoted).not.toBe("my tools")
    expect(toolTesterCommand({ cwd: project, env: {}, bin })).toBe(`npx --no --prefix ${quoted} tool-tester`)
  })
})
