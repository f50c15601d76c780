// Which of the module files a load imported the watcher watches one by one: those outside the
// tool and plugin folders (watched whole already, so a save there is one event), never one under
// node_modules, and each once.
import path from "node:path"
import { expect, test } from "vitest"
import { watchTargets } from "../../src/inspector/watch-project.ts"

test("the imported helpers outside the watched folders are watched, each once, none in node_modules", () => {
  const root = path.resolve("/project")
  const opencode = path.join(root, ".opencode")
  const at = (...parts: string[]) => path.join(root, ...parts)
  const targets = watchTargets(
    { directory: root, configDirectories: [{ path: opencode, kind: "project" }], configFiles: [] },
    [at("echo-plugin.ts")],
    [
      at(".opencode", "tools", "echo.ts"),
      at(".opencode", "tools", "lib", "inside.ts"),
      at(".opencode", "plugins", "plugin.ts"),
      at(".opencode", "lib", "helper.ts"),
      at("src", "api.ts"),
      at("src", "api.ts"),
      at("echo-plugin.ts"),
      path.resolve("/shared/x.ts"),
      at("node_modules", "zod", "index.js"),
      at("packages", "a", "node_modules", "b", "index.ts"),
    ],
  )
  expect(targets.files).toEqual([
    at("echo-plugin.ts"),
    at(".opencode", "lib", "helper.ts"),
    at("src", "api.ts"),
    path.resolve("/shared/x.ts"),
  ])
  expect(targets.deep).toContain(path.join(opencode, "tools"))
})
