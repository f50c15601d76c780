import { execFileSync } from "node:child_process"
import { rmSync, utimesSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { buildFingerprint, buildIsCurrent, recordBuild } from "../../scripts/build-fingerprint.mjs"
import { useTmpDir, writeFiles } from "../install/_run.ts"

/** A repository laid out as this one is, with what a build reads and what it leaves. */
function repository(): string {
  const root = useTmpDir("build-fingerprint-")
  const files: Record<string, string> = {
    "package.json": "{}",
    "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
    "packages/tool-tester/src/main.ts": "export const a = 1\n",
    "packages/tool-tester/test/main.test.ts": "// a test\n",
    "packages/tool-tester/README.md": "# tool-tester\n",
    "templates/default/tool.ts": "export {}\n",
    ".gitignore": "node_modules/\ndist/\n",
  }
  writeFiles(root, files)
  execFileSync("git", ["init", "-q"], { cwd: root })
  execFileSync("git", ["add", "."], { cwd: root })
  for (const output of [
    "packages/plugin/dist/index.js",
    "packages/create-tool/dist/cli.js",
    "packages/tool-tester/dist/cli/main.js",
    "packages/tool-tester/dist/engine/bun-serve.js",
  ]) {
    write(root, output, "")
  }
  return root
}

function write(root: string, file: string, text: string): void {
  writeFiles(root, { [file]: text })
}

describe("the build is skipped only when nothing it reads changed since a build that succeeded", () => {
  test("no recorded build: not current; recorded: current", () => {
    const root = repository()
    const fingerprint = buildFingerprint(root)
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/)
    expect(buildIsCurrent(root, fingerprint)).toBe(false)
    recordBuild(root, fingerprint)
    expect(buildIsCurrent(root, buildFingerprint(root))).toBe(true)
  })

  test("a changed, new or deleted source, template or lockfile makes it stale; a test or a README does not", () => {
    const root = repository()
    recordBuild(root, buildFingerprint(root))
    write(root, "packages/tool-tester/test/main.test.ts", "// another test\n")
    write(root, "packages/tool-tester/README.md", "# changed\n")
    expect(buildIsCurrent(root, buildFingerprint(root))).toBe(true)

    for (const change of [
      () => write(root, "packages/tool-tester/src/main.ts", "export const a = 2\n"),
      () => write(root, "packages/tool-tester/src/new-file.ts", "export {}\n"),
      () => rmSync(path.join(root, "packages/tool-tester/src/main.ts")),
      () => write(root, "templates/default/tool.ts", "export const b = 1\n"),
      () => write(root, "pnpm-lock.yaml", "lockfileVersion: '9.1'\n"),
    ]) {
      const before = buildFingerprint(root)
      recordBuild(root, before)
      change()
      expect(buildIsCurrent(root, buildFingerprint(root))).toBe(false)
    }
  })

  test("an output removed by hand makes it stale", () => {
    const root = repository()
    recordBuild(root, buildFingerprint(root))
    rmSync(path.join(root, "packages/tool-tester/dist"), { recursive: true })
    expect(buildIsCurrent(root, buildFingerprint(root))).toBe(false)
  })

  test("a build run another way since (its outputs written again) makes it stale", () => {
    const root = repository()
    recordBuild(root, buildFingerprint(root))
    const output = path.join(root, "packages/tool-tester/dist/cli/main.js")
    const later = new Date(Date.now() + 5_000)
    utimesSync(output, later, later)
    expect(buildIsCurrent(root, buildFingerprint(root))).toBe(false)
  })

  test("outside a git checkout there is no fingerprint, and the build always runs", () => {
    const root = useTmpDir("build-fingerprint-nogit-")
    expect(buildFingerprint(root)).toBeUndefined()
    expect(buildIsCurrent(root, undefined)).toBe(false)
  })
})
