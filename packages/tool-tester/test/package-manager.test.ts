import path from "node:path"
import { expect, test } from "vitest"
import { packageManagerThatInstalled, packageManagerThatStarted } from "../src/package-manager.ts"
import { useTmpDir, writeFiles } from "./helpers.ts"

// Two questions with two answers: the manager running this process is not always the one that
// installed the project (npx in a pnpm project), and each command asks the one it needs.
test("the manager that started this process comes from its user agent, and none is named without one", () => {
  expect(packageManagerThatStarted({ npm_config_user_agent: "pnpm/10.3.0 npm/? node/v20.20.0 linux x64" })).toBe("pnpm")
  expect(packageManagerThatStarted({ npm_config_user_agent: "bun/1.3.14 npm/? node/v24.3.0 linux x64" })).toBe("bun")
  expect(packageManagerThatStarted({ npm_config_user_agent: "deno/2.0" })).toBeUndefined()
  expect(packageManagerThatStarted({})).toBeUndefined()
})

test("the manager that installed a project comes from its lock file, a workspace's root one, or npm", () => {
  const root = useTmpDir()
  writeFiles(root, { "pnpm-lock.yaml": "", "member/package.json": "{}", "yarned/yarn.lock": "" })
  expect(packageManagerThatInstalled(path.join(root, "member"))).toBe("pnpm")
  expect(packageManagerThatInstalled(path.join(root, "yarned"))).toBe("yarn")
  const bare = useTmpDir()
  writeFiles(bare, { "node_modules/.package-lock.json": "{}" })
  expect(packageManagerThatInstalled(bare)).toBe("npm")
})
