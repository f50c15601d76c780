import { expect, test } from "vitest"
import { nextSteps } from "../src/next-steps.ts"
import type { ScaffoldResult } from "../src/scaffold.ts"

// The next steps are written for the user's shell (userShell(): cmd.exe or PowerShell on Windows),
// not only for a POSIX one: `cd 'my app'` fails in cmd.exe, and --args '{"text":...}' reaches the
// CLI with its quotes in it there (ARGS_UNPARSABLE).
const result = (overrides: Partial<ScaffoldResult> = {}): ScaffoldResult => ({
  location: "project",
  language: "ts",
  template: {
    name: "python",
    summary: "",
    description: "",
    exampleArgs: { text: "one & two" },
    reservedExportNames: [],
  },
  root: "/work/my app/.opencode",
  directory: "/work/my app",
  toolName: "hello",
  packageName: undefined,
  toolIds: ["hello"],
  files: [],
  notes: [],
  test: true,
  testScript: "test",
  ...overrides,
})
const npm = { name: "npm" as const, version: "10.0.0" }

test("for cmd.exe: double quotes, and JSON quoted for the program with cmd's characters escaped", () => {
  expect(nextSteps(result(), { packageManager: npm, cwd: "/work", shell: "cmd" }).commands).toEqual([
    'cd "my app"',
    "npm install --prefix .opencode",
    "npm test --prefix .opencode",
    'npx --no --prefix .opencode tool-tester run hello --args ^"{\\^"text\\^":\\^"one^ ^&^ two\\^"}^"',
  ])
})

test("for PowerShell: single quotes, in which JSON's double quotes are plain", () => {
  expect(nextSteps(result(), { packageManager: npm, cwd: "/work", shell: "powershell" }).commands).toEqual([
    "cd 'my app'",
    "npm install --prefix .opencode",
    "npm test --prefix .opencode",
    `npx --no --prefix .opencode tool-tester run hello --args '{"text":"one & two"}'`,
  ])
})

test("arguments that need no quoting are the same key=value pairs in every shell", () => {
  const plain = result({ template: { ...result().template, exampleArgs: { name: "Ada" } } })
  for (const shell of ["posix", "cmd", "powershell"] as const)
    expect(nextSteps(plain, { packageManager: npm, cwd: "/work/my app", shell }).commands.at(-1)).toBe(
      "npx --no --prefix .opencode tool-tester run hello name=Ada",
    )
})
