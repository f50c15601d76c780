// Bundles each command's worker (src/cli/workers/*.ts and the library code it uses) into one file,
// over tsc's output. A worker's start is on the way to every tool call, and one file per concept
// costs a read, a parse and a link each: bundled, `tool-tester run` reaches the tool ~10 ms sooner
// (bench/cli-cold-start.ts). Packages stay external (zod must be the copy tools use) but one, and
// so does the module that finds files next to itself at run time. Run by `npm run build`, after tsc.
import { readdirSync, readFileSync, rmSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"))
// import-meta-resolve is bundled in: loading its five files took longer than the rest of a warm load.
const bundledPackages = ["import-meta-resolve"]
const external = Object.keys(manifest.dependencies).filter((name) => !bundledPackages.includes(name))
const located = path.join(root, "src", "discovery", "runtime-files.ts")
const workers = path.join(root, "src", "cli", "workers")

await build({
  entryPoints: readdirSync(workers).map((name) => path.join(workers, name)),
  outdir: path.join(root, "dist", "cli", "workers"),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  external: external.flatMap((name) => [name, `${name}/*`]),
  logLevel: "warning",
  plugins: [
    {
      name: "keep-located-module-apart",
      setup(context) {
        context.onResolve({ filter: /^\./ }, (args) =>
          path.resolve(args.resolveDir, args.path) === located
            ? { path: "../../discovery/runtime-files.js", external: true }
            : undefined,
        )
      },
    },
  ],
})

// tsc's source maps describe the files the bundles replaced.
for (const name of readdirSync(path.join(root, "dist", "cli", "workers"))) {
  if (name.endsWith(".js.map")) rmSync(path.join(root, "dist", "cli", "workers", name))
}
