import { mkdirSync } from "node:fs"
import path from "node:path"
import { expect, test } from "vitest"
import { autoInstallReaches } from "../../src/runtime/auto-install.ts"
import { useTmpDir } from "../helpers.ts"

// Bun's rule, observed on opencode's Bun 1.3.14 (no-auto-install.test.ts runs it): an import from a
// folder with no node_modules in it or above it may be fetched from the registry.
test("auto-install reaches a folder only when neither it nor a folder above it has node_modules", () => {
  const root = useTmpDir("auto-install-")
  const tools = path.join(root, "project", ".opencode", "tools")
  mkdirSync(tools, { recursive: true })
  expect(autoInstallReaches(tools)).toBe(true)
  mkdirSync(path.join(root, "project", ".opencode", "node_modules"))
  expect(autoInstallReaches(tools)).toBe(false)
  expect(autoInstallReaches(path.join(root, "project", ".opencode"))).toBe(false)
  expect(autoInstallReaches(path.join(root, "project"))).toBe(true)
  mkdirSync(path.join(root, "node_modules"))
  expect(autoInstallReaches(path.join(root, "project"))).toBe(false)
})
