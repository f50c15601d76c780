// The browser tests' helper: a `tool-tester dev` that ends before printing its URL gives the test
// no stop to call, so the helper itself removes the throw-away HOME it made for it.
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { expect, onTestFinished, test, vi } from "vitest"
import { makeProject, startDev } from "./_inspector.ts"

test("startDev removes its temporary HOME when dev exits before printing its URL", { timeout: 60_000 }, async () => {
  const project = makeProject({})
  onTestFinished(project.remove)
  // Where startDev makes its HOME: a folder of this test's own, to see what is left in it.
  const parent = mkdtempSync(path.join(os.tmpdir(), "tool-tester-start-dev-"))
  onTestFinished(() => rmSync(parent, { recursive: true, force: true }))
  const tmpdir = vi.spyOn(os, "tmpdir").mockReturnValue(parent)
  onTestFinished(() => tmpdir.mockRestore())

  // A --port that is not a port: dev stops with a usage error before it listens.
  await expect(startDev(project.directory, ["--port", "nope"])).rejects.toThrow(/exited with 1 before printing its URL/)
  expect(tmpdir).toHaveBeenCalled()
  expect(readdirSync(parent)).toEqual([])
})
