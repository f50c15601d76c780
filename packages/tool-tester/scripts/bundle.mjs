// Bundles the CLI's entry (src/cli/main.ts) and the engines' task server (src/engine/serve.ts, once
// for Bun and once for Node) over tsc's output. An engine's start is on the way to every tool call,
// and one file per concept costs a read, a parse and a link each: bundled, `tool-tester run`
// reaches the tool ~10 ms sooner (bench/cli-cold-start.ts).
// Packages stay external (zod must be the copy tools use) but one, and so does the module that
// finds files next to itself at run time. Run by `npm run build`, after tsc.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"))
// import-meta-resolve is bundled in: loading its five files took longer than the rest of a warm load.
const bundledPackages = ["import-meta-resolve"]
// The optional peers (what only fuzz, preflight and dev use) stay external too: they are installed
// apart, when a user first needs them (src/extras.ts).
const external = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)].filter(
  (name) => !bundledPackages.includes(name),
)
const located = path.join(root, "src", "runtime", "runtime-files.ts")
const prepared = path.join(root, "src", "discovery", "prepare-module.ts")

/**
 * The located module stays a file of its own (it finds files next to itself), reached through the
 * package's `#runtime-files` import, which resolves the same from every folder of the build.
 */
const keepLocatedModuleApart = {
  name: "keep-located-module-apart",
  setup(context) {
    context.onResolve({ filter: /^\./ }, (args) =>
      path.resolve(args.resolveDir, args.path) === located ? { path: "#runtime-files", external: true } : undefined,
    )
  },
}

/**
 * Bun imports tool files natively: Node's module preparation (esbuild, the lexer) stays out of its
 * bundle, and so does the CommonJS detour that keeps test runners from rewriting `import()` (the
 * engine's process runs no test runner): together ~10 ms of every bun engine start.
 */
const leaveNodeLoaderOut = {
  name: "leave-node-loader-out",
  setup(context) {
    const replaced = new Map([
      [
        prepared,
        `export function preparerFor() { throw new Error("the bun engine imports modules natively") }
export function preparedFiles() { return [] }`,
      ],
      [
        located,
        `export const nativeImport = (url) => import(url)
import { fileURLToPath } from "node:url"
export const BUN_ENGINE_ENTRY = fileURLToPath(new URL("./bun-serve.js", import.meta.url))
export const NODE_ENGINE_ENTRY = fileURLToPath(new URL("./node-serve.js", import.meta.url))
export const ENGINE_BUNFIG = fileURLToPath(new URL("./bunfig.toml", import.meta.url))
export const REAPER_ENTRY = fileURLToPath(new URL("./reaper-process.js", import.meta.url))`,
      ],
    ])
    context.onResolve({ filter: /^\./ }, (args) => {
      const file = path.resolve(args.resolveDir, args.path)
      return replaced.has(file) ? { path: file, namespace: "bun-engine" } : undefined
    })
    context.onLoad({ filter: /.*/, namespace: "bun-engine" }, (args) => ({
      contents: replaced.get(args.path),
      loader: "js",
    }))
  },
}

// Chunks carry a content hash in their names: the ones of an earlier build would stay beside the
// new ones (and be packed), so they go first.
for (const [folder, pattern] of [
  [path.join(root, "dist"), /^chunk-[A-Z0-9]{8}\.js$/],
  [path.join(root, "dist", "cli"), /-[A-Z0-9]{8}\.js(\.map)?$/],
  [path.join(root, "dist", "engine"), /^(bun|node)-serve(-.*)?\.js$/],
]) {
  for (const name of readdirSync(folder)) if (pattern.test(name)) rmSync(path.join(folder, name))
}

const common = {
  bundle: true,
  format: "esm",
  platform: "node",
  external: external.flatMap((name) => [name, `${name}/*`]),
  logLevel: "warning",
}

// The CLI itself: its start is on the way to every command, and it is what starts the engine.
// Commands are imported on demand, so they become chunks of their own, beside main.js (the CLI
// finds its workers and package.json relative to itself).
await build({
  ...common,
  entryPoints: [path.join(root, "src", "cli", "main.ts")],
  outdir: path.join(root, "dist", "cli"),
  splitting: true,
  chunkNames: "[name]-[hash]",
  target: "node20.19",
  plugins: [keepLocatedModuleApart],
})

// The public entries, over the files tsc wrote for them (their .d.ts stay): a test that imports the
// main entry reads a few files instead of ~70 modules (about half its import time on Node 20;
// bench/import-main.ts). One build with shared chunks, so that the entries share one copy of each
// module (one ToolTesterError class).
await build({
  ...common,
  entryPoints: Object.fromEntries(
    ["index", "vitest/index", "e2e/index", "fuzz/index", "lint/index"].map((entry) => [
      entry,
      path.join(root, "src", `${entry}.ts`),
    ]),
  ),
  outdir: path.join(root, "dist"),
  allowOverwrite: true,
  splitting: true,
  chunkNames: "chunk-[hash]",
  target: "node20.19",
  plugins: [keepLocatedModuleApart],
})

const serve = path.join(root, "src", "engine", "serve.ts")

await build({
  ...common,
  // Split, so that what only doctor and fuzz need (fast-check, the provider lint) loads when asked.
  entryPoints: { "node-serve": serve },
  outdir: path.join(root, "dist", "engine"),
  splitting: true,
  chunkNames: "node-serve-[name]-[hash]",
  target: "node20.19",
  plugins: [keepLocatedModuleApart],
})

await build({
  ...common,
  entryPoints: { "bun-serve": serve },
  outdir: path.join(root, "dist", "engine"),
  splitting: true,
  chunkNames: "bun-serve-[name]-[hash]",
  target: "esnext",
  plugins: [leaveNodeLoaderOut],
})

// The reaper (src/runtime/reaper.ts): a watchdog process beside the CLI, a library user's process or
// an engine, started with either runtime; one small file, so it costs one read to start.
await build({
  ...common,
  entryPoints: { "reaper-process": path.join(root, "src", "runtime", "_reaper-process.ts") },
  outdir: path.join(root, "dist", "engine"),
  target: "node20.19",
})

// The bun engine's Bun config, in place of the project's bunfig.toml, which opencode's Bun does not
// read (src/runtime/runtime-files.ts ENGINE_BUNFIG).
writeFileSync(
  path.join(root, "dist", "engine", "bunfig.toml"),
  "# Empty: opencode's Bun reads no bunfig.toml, so tool-tester's bun engine reads this one instead.\n",
)

// tsc's source maps describe the files the bundles replaced.
for (const replaced of ["cli/main", "index", "vitest/index", "e2e/index", "fuzz/index", "lint/index"]) {
  rmSync(path.join(root, "dist", `${replaced}.js.map`), { force: true })
}
