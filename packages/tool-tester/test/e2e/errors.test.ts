import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, afterEach, describe, expect, it, onTestFinished, vi } from "vitest"
import { runE2E } from "../../src/e2e/run-e2e.ts"
import type { Script } from "../../src/e2e/script.ts"
import { ToolTesterError } from "../../src/errors.ts"
import { opencodeNotFoundError, resolveOpencode } from "../../src/opencode/opencode-binary.ts"
import { programOnPath } from "../support/program-on-path.ts"
import { tmpProject } from "../support/tmp-project.ts"
import { leftoverFolders, makeTempParent } from "./leftovers.ts"

// None of these starts the real opencode: each fails before, or runs a binary that is not opencode.
const project = fileURLToPath(new URL("../fixtures/e2e-round-trip", import.meta.url))
const script: Script = { turns: [{ text: "hello" }] }
const tempParent = makeTempParent()
afterAll(() => tempParent.remove())
afterEach(() => {
  expect(leftoverFolders(tempParent.path)).toEqual([])
})

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!ToolTesterError.isInstance(error)) throw new Error(`expected a ToolTesterError, got ${String(error)}`)
  return error.code
}

describe("runE2E failures", () => {
  it("says how to get opencode when the given binary does not exist", async () => {
    const error = await resolveOpencode({ opencode: "/no/such/opencode" }).catch((caught: unknown) => caught)
    expect((error as ToolTesterError).code).toBe("OPENCODE_NOT_FOUND")
    const run = runE2E({ directory: project, script, opencode: "/no/such/opencode", tempDirectory: tempParent.path })
    expect(await codeOf(run)).toBe("OPENCODE_NOT_FOUND")
  })

  it("looks a command name given as the binary up on PATH, as a shell does, and keeps a path a path", async () => {
    const { file, env } = programOnPath("my-opencode")
    expect(await resolveOpencode({ opencode: "my-opencode", env })).toBe(file)
    await expect(resolveOpencode({ opencode: "no-such-opencode", env })).rejects.toMatchObject({
      code: "OPENCODE_NOT_FOUND",
      message:
        "No program named no-such-opencode on PATH. Check the --opencode name, give the binary's path, or drop it to use an installed one.",
    })
    // With a folder in it, a path from the working folder, never looked up on PATH.
    await expect(resolveOpencode({ opencode: `.${path.sep}my-opencode`, env })).rejects.toMatchObject({
      code: "OPENCODE_NOT_FOUND",
      message: expect.stringContaining(`No executable opencode binary at ${path.resolve("my-opencode")}.`),
    })
  })

  it("names the platform package to install when no binary is found anywhere", async () => {
    const error = await resolveOpencode({ opencodeVersion: "not a version" }).catch((caught: unknown) => caught)
    expect((error as ToolTesterError).code).toBe("OPENCODE_NOT_FOUND")
  })

  it("refuses a tag or a range for the version before npm runs: the cache would keep its first answer for good", async () => {
    // `latest` was installed into opencode-linux-x64@latest and that folder reused ever after.
    for (const tag of ["latest", "1", "1.x"]) {
      const error = await resolveOpencode({ opencodeVersion: tag }).catch((caught: unknown) => caught)
      expect(error).toMatchObject({
        code: "OPENCODE_NOT_FOUND",
        message: `"${tag}" is not an opencode version (like 1.18.34): give an exact version, not a tag or a range, which would be installed once and kept in the cache as it first resolved (npm view opencode-ai version prints the newest).`,
      })
    }
  })

  it("says npm is missing, not that the version is wrong, when no npm is on PATH to install it", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "no-npm-"))
    onTestFinished(() => rmSync(empty, { recursive: true, force: true }))
    vi.stubEnv("PATH", empty)
    onTestFinished(() => {
      vi.unstubAllEnvs()
    })
    const error = await resolveOpencode({ opencodeVersion: "9.9.9" }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({
      code: "OPENCODE_NOT_FOUND",
      message: expect.stringMatching(
        /^Could not install opencode-[a-z0-9-]+@9\.9\.9: npm was not found on PATH\. Put npm on PATH \(it comes with Node\.js\), or install opencode-[a-z0-9-]+@9\.9\.9 yourself and pass --opencode PATH\.$/,
      ),
    })
  })

  it("offers to add the platform package only to a package, with the package manager that installed it", () => {
    const pnpmPackage = tmpProject({ "package.json": "{}\n", "pnpm-lock.yaml": "", "src/.keep": "" })
    // From a folder inside it: the package.json above is the package a dev dependency goes to.
    expect(opencodeNotFoundError(path.join(pnpmPackage, "src")).message).toMatch(
      /Add it to the project with `pnpm add -D opencode-[a-z]+-[a-z0-9]+@1\.18\.34`, or pass --opencode PATH or --opencode-version 1\.18\.34\./,
    )
    // No package.json: adding a dev dependency would create one, so the cache comes first.
    const plain = mkdtempSync(path.join(tmpdir(), "no-package-"))
    onTestFinished(() => rmSync(plain, { recursive: true, force: true }))
    const message = opencodeNotFoundError(plain).message
    expect(message).toBe(
      "No opencode binary found. Pass --opencode-version 1.18.34 to download it into tool-tester's cache (once, about 180 MB), or --opencode PATH, or install opencode on PATH (npm install -g opencode-ai).",
    )
  })

  it("fails with OPENCODE_FAILED when the binary is not opencode, removing the tempDirectory it had to make", async () => {
    // A tempDirectory that does not exist yet is made for the run, and goes with it; the given
    // folder that existed (tempParent) stays.
    const tempDirectory = path.join(tempParent.path, "made", "for-the-run")
    const error = await runE2E({ directory: project, script, opencode: process.execPath, tempDirectory }).catch(
      (caught: unknown) => caught,
    )
    // Node prints a version too: the result must not give it as opencode's (its --help says it is not).
    expect(error).toMatchObject({
      code: "OPENCODE_FAILED",
      message: expect.stringContaining(`${process.execPath} ended before talking to the model (`),
      data: { result: { opencodeVersion: null, notOpencode: "its --help lists no `opencode run`" } },
    })
    expect((error as Error).message).toMatch(
      /: it is not opencode \(its --help lists no `opencode run`\)\. Pass opencode's binary with --opencode, or leave --opencode out to use an installed one\.$/,
    )
    expect(existsSync(path.join(tempParent.path, "made"))).toBe(false)
    expect(existsSync(tempParent.path)).toBe(true)
  })

  it("fails with PORT_IN_USE when the mock model's port is taken", async () => {
    const server: Server = createServer()
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const port = (server.address() as { port: number }).port
    try {
      const run = runE2E({ directory: project, script, port, tempDirectory: tempParent.path })
      expect(await codeOf(run)).toBe("PORT_IN_USE")
    } finally {
      server.close()
    }
  })

  it("fails with SCRIPT_INVALID before starting anything when the script is malformed", async () => {
    const bad = { turns: [{ calls: [{ tool: "echo", args: "not an object" }] }] } as unknown as Script
    const run = runE2E({ directory: project, script: bad, tempDirectory: tempParent.path })
    expect(await codeOf(run)).toBe("SCRIPT_INVALID")
  })

  it("fails with CONFIG_INVALID before starting anything when the config given has a setting opencode refuses", async () => {
    const config = { attachment: { image: { auto_resize: "no" } } }
    const error = await runE2E({ directory: project, script, config, tempDirectory: tempParent.path }).catch(
      (caught: unknown) => caught,
    )
    expect(error).toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringMatching(
        /^the config given: attachment\.image\.auto_resize is "no", but opencode requires true or false/,
      ),
      data: { key: "attachment.image.auto_resize", value: "no" },
    })
    const plugins = await runE2E({
      directory: project,
      script,
      config: { plugin: [7] },
      tempDirectory: tempParent.path,
    })
      .then(() => undefined)
      .catch((caught: unknown) => caught)
    expect(plugins).toMatchObject({
      code: "CONFIG_INVALID",
      data: { key: "plugin", problems: ["plugin.0 is 7, not a string or a [string, object] pair"] },
    })
  })

  it("fails with PATH_NOT_FOUND naming the temporary folder when it cannot hold the run's folder", async () => {
    // A file where the folder should be: Node's EEXIST, which the CLI reported as INTERNAL with its stack.
    const folder = mkdtempSync(path.join(tmpdir(), "temp-is-a-file-"))
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
    const file = path.join(folder, "a-file")
    writeFileSync(file, "")
    const error = await runE2E({ directory: project, script, opencode: process.execPath, tempDirectory: file }).catch(
      (caught: unknown) => caught,
    )
    expect(error).toMatchObject({
      code: "PATH_NOT_FOUND",
      message: `The temporary folder ${file} cannot hold the run's throw-away folder (EEXIST): pass a tempDirectory you can write to.`,
      data: { path: file },
    })
  })

  it("fails with PATH_NOT_FOUND when the project folder does not exist", async () => {
    const run = runE2E({ directory: "/no/such/project", script, tempDirectory: tempParent.path })
    expect(await codeOf(run)).toBe("PATH_NOT_FOUND")
  })
})
