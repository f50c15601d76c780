// The Bun that opencode embeds: the opencode binary this repository installs (an optional
// dependency of the root), run with BUN_BE_BUN=1.
import { createRequire } from "node:module"
import path from "node:path"
import { root } from "./_packages.ts"

export function opencodeBinary(): string {
  const packageName = `opencode-${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`
  const require = createRequire(path.join(root, "package.json"))
  const manifest = require.resolve(`${packageName}/package.json`)
  return path.join(path.dirname(manifest), "bin", process.platform === "win32" ? "opencode.exe" : "opencode")
}
