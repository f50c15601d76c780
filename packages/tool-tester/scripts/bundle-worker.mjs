// Bundles the CLI's worker thread (src/cli/worker.ts and the library code its tasks use) over
// tsc's dist/cli/worker.js, one chunk per task. The worker's start is on the way to every tool
// call, and one file per concept costs a file read, parse and link each: bundled, `tool-tester run`
// reaches the tool sooner (bench/cli-cold-start.ts). Packages stay external (zod must be the copy
// tools use) but one, and so does the module that finds files next to itself at run time.
// Run by `npm run build`, after tsc.
import { readdirSync, readFileSync, rmSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const outdir = path.join(root, "dist", "cli")
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"))
// import-meta-resolve is bundled in: loading its five files took longer than the rest of a warm load.
const bundledPackages = ["import-meta-resolve"]
const external = Object.keys(manifest.dependencies).filter((name) => !bundledPackages.includes(name))
const located = ["runtime-files.ts"].map((name) => path.join(root, "src", "discovery", name))

for (const name of readdirSync(outdir)) {
  if (/^worker-.*-[A-Z0-9]{8}\.js$/.test(name)) rmSync(path.join(outdir, name))
}

await build({
  // The helper that prepared modules import for `import.meta` and `import()` is bundled with the
  // worker, over tsc's copy, so the two share their chunks (and one module loader) at run time.
  entryPoints: [path.join(root, "src", "cli", "worker.ts"), path.join(root, "src", "discovery", "_import-meta.ts")],
  outdir: path.join(root, "dist"),
  outbase: path.join(root, "src"),
  entryNames: "[dir]/[name]",
  chunkNames: "cli/worker-[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  external: external.flatMap((name) => [name, `${name}/*`]),
  logLevel: "warning",
  plugins: [
    {
      name: "keep-located-modules-apart",
      setup(context) {
        context.onResolve({ filter: /^\./ }, (args) => {
          const file = path.resolve(args.resolveDir, args.path)
          if (!located.includes(file)) return undefined
          return { path: `../discovery/${path.basename(file, ".ts")}.js`, external: true }
        })
      },
    },
  ],
})
