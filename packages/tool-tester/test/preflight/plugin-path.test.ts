// The --plugin path in the command a SMOKE_RUN_FAILED finding prints: pasted where preflight ran,
// it names the package folder (`preflight packages/opencode-weather` from a repository's root gave
// `--plugin .`, the root).
import path from "node:path"
import { expect, test } from "vitest"
import { pluginPathFrom } from "../../src/cli/commands/preflight.ts"

const root = path.resolve("/work/repo")

test("the package folder from where preflight ran: ., ./below, else the folder itself", () => {
  expect(pluginPathFrom(root, root)).toBe(".")
  expect(pluginPathFrom(root, path.join(root, "packages", "weather"))).toBe(
    `.${path.sep}${path.join("packages", "weather")}`,
  )
  expect(pluginPathFrom(path.join(root, "packages", "weather"), root)).toBe(root)
  expect(pluginPathFrom(root, path.resolve("/elsewhere/weather"))).toBe(path.resolve("/elsewhere/weather"))
  // A folder whose name starts with two dots is below, not above.
  expect(pluginPathFrom(root, path.join(root, "..weather"))).toBe(`.${path.sep}..weather`)
})
