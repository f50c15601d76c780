import { execFileSync } from "node:child_process"
import { readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

// The CLI tests spawn the built bin. The root `pnpm test` builds first; when this project runs on
// its own (`vitest run --project create-tool`), build it here if dist/ is missing or older than src/.
export default function setup(): void {
  const packageDirectory = fileURLToPath(new URL("..", import.meta.url))
  const built = statSync(join(packageDirectory, "dist/cli.js"), { throwIfNoEntry: false })?.mtimeMs ?? 0
  const sources = readdirSync(join(packageDirectory, "src")).map(
    (file) => statSync(join(packageDirectory, "src", file)).mtimeMs,
  )
  if (sources.every((modified) => modified <= built)) return
  // The package's build script: tsc for the library, then the bundled CLI.
  const tsc = join(packageDirectory, "node_modules/typescript/bin/tsc")
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: packageDirectory, stdio: "inherit" })
  execFileSync(process.execPath, ["scripts/build-cli.mjs"], { cwd: packageDirectory, stdio: "inherit" })
}
