import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { shellWord } from "../src/_shell-quote.ts"
import { nextSteps } from "../src/next-steps.ts"
import { packageManagerFromUserAgent } from "../src/package-manager.ts"
import type { ScaffoldResult } from "../src/scaffold.ts"
import { useTmpDir } from "./helpers.ts"

const shellQuote = (word: string) => shellWord(word, "posix")

const result = (overrides: Partial<ScaffoldResult> = {}): ScaffoldResult => ({
  location: "project",
  language: "ts",
  template: {
    name: "default",
    summary: "",
    description: "",
    exampleArgs: { name: "Ada" },
    reservedExportNames: [],
  },
  root: "/work/app/.opencode",
  directory: "/work/app",
  toolName: "hello",
  packageName: undefined,
  toolIds: ["hello"],
  files: [],
  notes: [],
  test: true,
  testScript: "test",
  ...overrides,
})

test.each([
  ["pnpm/10.34.9 npm/? node/v20.19.0 linux x64", "pnpm", "10.34.9"],
  ["yarn/1.22.19 npm/? node/v20.19.0 linux x64", "yarn", "1.22.19"],
  ["bun/1.2.0 npm/? node/v22.0.0 linux x64", "bun", "1.2.0"],
  ["npm/10.8.2 node/v20.19.0 linux x64 workspaces/false", "npm", "10.8.2"],
  [undefined, "npm", undefined],
  ["something else", "npm", undefined],
])("the user agent %j means %s", (userAgent, name, version) => {
  expect(packageManagerFromUserAgent(userAgent)).toEqual({ name, version })
})

test("for npm in the project folder: install, test and run .opencode's package from the project folder", () => {
  const steps = nextSteps(result(), { packageManager: { name: "npm", version: "10.0.0" }, cwd: "/work/app" })
  expect(steps.commands).toEqual([
    "npm install --prefix .opencode",
    "npm test --prefix .opencode",
    `npx --no --prefix .opencode tool-tester run hello name=Ada`,
  ])
  expect(steps.hint).toBe("Start opencode in /work/app: it will offer hello.")
})

test("yarn and bun get their own commands; bun runs the test script, not bun test", () => {
  const options = (name: "yarn" | "bun", version: string) => ({
    packageManager: { name, version },
    cwd: "/work/app",
  })
  expect(nextSteps(result(), options("yarn", "1.22.22")).commands).toEqual([
    "yarn --cwd .opencode install",
    "yarn --cwd .opencode test",
    `yarn --cwd .opencode tool-tester run hello name=Ada`,
  ])
  // yarn 2 and later would install with Plug'n'Play, which neither opencode nor tool-tester loads from.
  expect(nextSteps(result(), options("yarn", "4.9.2")).commands).toEqual([
    "yarn --cwd .opencode config set nodeLinker node-modules",
    "yarn --cwd .opencode install",
    "yarn --cwd .opencode test",
    `yarn --cwd .opencode tool-tester run hello name=Ada`,
  ])
  expect(nextSteps(result(), options("bun", "1.3.14")).commands).toEqual([
    "bun install --cwd .opencode",
    "bun run --cwd .opencode test",
    `bun run --cwd .opencode tool-tester run hello name=Ada`,
  ])
})

test("under pnpm, a config folder gets npm's commands, a plugin package pnpm's", () => {
  // opencode's own npm install in a config folder fails slowly on pnpm's layout (doctor's PNPM_INSTALL).
  const pnpm = { packageManager: { name: "pnpm" as const, version: "10.34.9" }, cwd: "/work" }
  expect(nextSteps(result(), pnpm).commands).toEqual([
    "cd app",
    "npm install --prefix .opencode",
    "npm test --prefix .opencode",
    "npx --no --prefix .opencode tool-tester run hello name=Ada",
  ])
  const global = result({
    location: "global",
    root: "/home/me/.config/opencode",
    directory: "/home/me/.config/opencode",
  })
  expect(nextSteps(global, { ...pnpm, cwd: "/work/app" }).commands).toEqual([
    "cd /home/me/.config/opencode",
    "npm install",
    "npm test",
    "npx @opencode-ai/tool-tester run hello --dir . name=Ada",
  ])
  const plugin = result({ location: "plugin", root: "/work/weather", directory: "/work/weather", toolIds: ["weather"] })
  expect(nextSteps(plugin, pnpm).commands).toEqual([
    "cd weather",
    "pnpm install",
    "pnpm test",
    "pnpm exec tool-tester run weather --plugin . --dir . name=Ada",
  ])
})

test("under pnpm, a config folder whose node_modules pnpm installed keeps pnpm's commands, which work there", () => {
  // npm stops on pnpm's node_modules ("Cannot read properties of null (reading 'matches')").
  const directory = useTmpDir()
  const root = join(directory, ".opencode")
  mkdirSync(join(root, "node_modules/.pnpm"), { recursive: true })
  const steps = nextSteps(result({ root, directory }), {
    packageManager: { name: "pnpm", version: "10.34.9" },
    cwd: directory,
  })
  expect(steps.commands).toEqual([
    "pnpm --dir .opencode install",
    "pnpm --dir .opencode test",
    "pnpm --dir .opencode exec tool-tester run hello name=Ada",
  ])
})

test.each([
  ["npm", "11.19.1"],
  ["yarn", "1.22.22"],
  ["bun", "1.3.14"],
] as const)("run by %s %s, a config folder that pnpm installed gets pnpm's commands", (name, version) => {
  // npm install stops on pnpm's node_modules; yarn 1's and bun's leave it pnpm's in part (config-folder-manager.ts).
  const directory = useTmpDir()
  const root = join(directory, ".opencode")
  mkdirSync(join(root, "node_modules"), { recursive: true })
  writeFileSync(join(root, "node_modules/.modules.yaml"), "")
  const packageManager = { name, version }
  expect(nextSteps(result({ root, directory }), { packageManager, cwd: directory }).commands).toEqual([
    "pnpm --dir .opencode install",
    "pnpm --dir .opencode test",
    "pnpm --dir .opencode exec tool-tester run hello name=Ada",
  ])
  const global = join(directory, "config/opencode")
  mkdirSync(join(global, "node_modules/.pnpm"), { recursive: true })
  const inGlobal = result({ location: "global", root: global, directory: global })
  expect(nextSteps(inGlobal, { packageManager, cwd: global }).commands.slice(0, 2)).toEqual([
    "pnpm install",
    "pnpm test",
  ])
})

test("run by yarn 2+, a config folder that pnpm installed keeps yarn's commands: its install replaces pnpm's", () => {
  const directory = useTmpDir()
  const root = join(directory, ".opencode")
  mkdirSync(join(root, "node_modules/.pnpm"), { recursive: true })
  const steps = nextSteps(result({ root, directory }), {
    packageManager: { name: "yarn", version: "4.9.2" },
    cwd: directory,
  })
  expect(steps.commands.slice(0, 2)).toEqual([
    "yarn --cwd .opencode config set nodeLinker node-modules",
    "yarn --cwd .opencode install",
  ])
})

test("from another folder, a cd into the project comes first; the commands stay the same", () => {
  const steps = nextSteps(result(), { packageManager: { name: "npm", version: "10.0.0" }, cwd: "/work" })
  expect(steps.commands).toEqual([
    "cd app",
    "npm install --prefix .opencode",
    "npm test --prefix .opencode",
    `npx --no --prefix .opencode tool-tester run hello name=Ada`,
  ])
  const inside = nextSteps(result(), { packageManager: { name: "npm", version: "10.0.0" }, cwd: "/work/app/.opencode" })
  expect(inside.commands[0]).toBe("cd ..")
  // A folder whose name starts with a dash would be an option to cd.
  const dashed = nextSteps(result({ root: "/work/-app/.opencode", directory: "/work/-app" }), {
    packageManager: { name: "npm", version: "10.0.0" },
    cwd: "/work",
  })
  expect(dashed.commands[0]).toBe("cd ./-app")
})

test("the global folder keeps cd, and runs the tool with that folder as the project", () => {
  const global = result({
    location: "global",
    root: "/home/me/.config/opencode",
    directory: "/home/me/.config/opencode",
  })
  const steps = nextSteps(global, { packageManager: { name: "npm", version: "10.0.0" }, cwd: "/work/app" })
  expect(steps.commands).toEqual([
    "cd /home/me/.config/opencode",
    "npm install",
    "npm test",
    `npx @opencode-ai/tool-tester run hello --dir . name=Ada`,
  ])
})

test("beside a test script of the user's, each package manager runs the script added, from the project folder", () => {
  const commands = (name: "npm" | "pnpm" | "yarn" | "bun", version: string) =>
    nextSteps(result({ testScript: "test:tools" }), { packageManager: { name, version }, cwd: "/work/app" }).commands
  expect(commands("npm", "11.0.0")).toEqual([
    "npm install --prefix .opencode",
    "npm run test:tools --prefix .opencode",
    "npx --no --prefix .opencode tool-tester run hello name=Ada",
  ])
  expect(commands("pnpm", "10.0.0")[1]).toBe("npm run test:tools --prefix .opencode")
  expect(commands("yarn", "1.22.22")[1]).toBe("yarn --cwd .opencode run test:tools")
  expect(commands("yarn", "4.9.2")[2]).toBe("yarn --cwd .opencode run test:tools")
  expect(commands("bun", "1.3.14")[1]).toBe("bun run --cwd .opencode test:tools")
})

test("beside a test script of the user's in the global folder, the script added runs there", () => {
  const global = result({
    location: "global",
    root: "/home/me/.config/opencode",
    directory: "/home/me/.config/opencode",
    testScript: "test:tools-2",
  })
  const test = (name: "npm" | "pnpm" | "yarn" | "bun") =>
    nextSteps(global, { packageManager: { name, version: "1.0.0" }, cwd: "/work/app" }).commands[2]
  expect([test("npm"), test("pnpm"), test("yarn"), test("bun")]).toEqual([
    "npm run test:tools-2",
    "npm run test:tools-2",
    "yarn run test:tools-2",
    "bun run test:tools-2",
  ])
})

test("yarn 2 and later set the node_modules linker first in the global folder too", () => {
  const global = result({
    location: "global",
    root: "/home/me/.config/opencode",
    directory: "/home/me/.config/opencode",
  })
  expect(nextSteps(global, { packageManager: { name: "yarn", version: "4.9.2" }, cwd: "/work/app" }).commands).toEqual([
    "cd /home/me/.config/opencode",
    "yarn config set nodeLinker node-modules",
    "yarn",
    "yarn test",
    "yarn tool-tester run hello --dir . name=Ada",
  ])
})

test("without a test, tool-tester is fetched to run the tool", () => {
  const commands = (name: "npm" | "pnpm" | "yarn", version: string) =>
    nextSteps(result({ test: false }), { packageManager: { name, version }, cwd: "/work/app" }).commands
  expect(commands("npm", "10.0.0")).toEqual([
    "npm install --prefix .opencode",
    `npx @opencode-ai/tool-tester run hello name=Ada`,
  ])
  expect(commands("pnpm", "10.0.0").at(-1)).toMatch(/^npx @opencode-ai\/tool-tester run /)
  expect(commands("yarn", "1.22.0").at(-1)).toMatch(/^npx @opencode-ai\/tool-tester run /)
  expect(commands("yarn", "4.1.0").at(-1)).toMatch(/^yarn dlx @opencode-ai\/tool-tester run /)
})

test("a plugin package is built and loaded from its folder", () => {
  const plugin = result({
    location: "plugin",
    root: "/work/weather",
    directory: "/work/weather",
    packageName: "weather",
    toolIds: ["weather"],
    test: false,
  })
  const steps = nextSteps(plugin, { packageManager: { name: "npm", version: "10.0.0" }, cwd: "/work" })
  expect(steps.commands).toEqual([
    "cd weather",
    "npm install",
    "npm run build",
    `npx @opencode-ai/tool-tester run weather --plugin . --dir . name=Ada`,
  ])
  expect(steps.hint).toContain('add "weather" to the "plugin" list of opencode.json')
})

test("the run command takes key=value pairs when no shell needs them quoted, else --args JSON", () => {
  const options = { packageManager: { name: "npm" as const, version: "10.0.0" }, cwd: "/work/app" }
  const run = (exampleArgs: Record<string, unknown>) =>
    nextSteps(result({ template: { ...result().template, exampleArgs } }), options).commands.at(-1)
  expect(run({ name: "Ada", path: "docs/a-b_c.md:1" })).toBe(
    "npx --no --prefix .opencode tool-tester run hello name=Ada path=docs/a-b_c.md:1",
  )
  expect(run({ text: "one two; $(echo three)" })).toBe(
    `npx --no --prefix .opencode tool-tester run hello --args '{"text":"one two; $(echo three)"}'`,
  )
  expect(run({ command: "node", args: ["--version"] })).toBe(
    `npx --no --prefix .opencode tool-tester run hello --args '{"command":"node","args":["--version"]}'`,
  )
  expect(run({ days: 3 })).toBe(`npx --no --prefix .opencode tool-tester run hello --args '{"days":3}'`)
})

test("shellQuote leaves plain words alone and single-quotes the rest", () => {
  expect(shellQuote("../my-app/.opencode")).toBe("../my-app/.opencode")
  expect(shellQuote("my app")).toBe("'my app'")
  expect(shellQuote(`it's`)).toBe(`'it'\\''s'`)
})

test("shellQuote writes a word with characters that do not show as $'...' with escapes", () => {
  expect(shellQuote("app\u202E")).toBe("$'app\\u202e'")
  expect(shellQuote("it's\u200B")).toBe("$'it\\'s\\u200b'")
  expect(shellQuote("a\\b\u001b")).toBe("$'a\\\\b\\x1b'")
  expect(shellQuote("x\u{E0001}")).toBe("$'x\\U000e0001'")
})
