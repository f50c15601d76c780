// The files that prepared modules and the loader need at run time, found next to this module in the
// build (from source, this package's tests take them from the build too). Every bundle of the build
// keeps this module apart, so these paths stay right.
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"

const FROM_SOURCE = import.meta.url.endsWith(".ts")

/**
 * A real `import()`, out of reach of test runners that rewrite dynamic imports (vitest would load
 * the tool through Vite instead of Node, unlike opencode).
 */
export function nativeImport(url: string, options?: ImportCallOptions): Promise<unknown> {
  // Required on first use: the CLI imports this module to start the engine, which needs no loader.
  loaded ??= (
    createRequire(import.meta.url)(
      FROM_SOURCE ? "../../dist/discovery/_native-import.cjs" : "../discovery/_native-import.cjs",
    ) as {
      nativeImport: (url: string, options?: ImportCallOptions) => Promise<unknown>
    }
  ).nativeImport
  return loaded(url, options)
}
let loaded: ((url: string, options?: ImportCallOptions) => Promise<unknown>) | undefined

/** The module that answers `import.meta` and `import()` for prepared modules. */
export const IMPORT_META_HELPER = new URL(
  FROM_SOURCE ? "../../dist/discovery/_import-meta.js" : "../discovery/_import-meta.js",
  import.meta.url,
).href

/** The engines' entries: the same task server (engine/serve.ts), bundled for each runtime by the build (scripts/bundle.mjs). */
export const BUN_ENGINE_ENTRY = fileURLToPath(
  new URL(FROM_SOURCE ? "../../dist/engine/bun-serve.js" : "../engine/bun-serve.js", import.meta.url),
)
export const NODE_ENGINE_ENTRY = fileURLToPath(
  new URL(FROM_SOURCE ? "../../dist/engine/node-serve.js" : "../engine/node-serve.js", import.meta.url),
)
/**
 * An empty Bun config, given to the bun engine with `--config` in place of the project's
 * `bunfig.toml`: opencode's Bun reads none (observed on 1.18.34: a preload in the project's
 * bunfig.toml does not run in opencode), so the engine reads none either. Written by the build.
 */
export const ENGINE_BUNFIG = fileURLToPath(
  new URL(FROM_SOURCE ? "../../dist/engine/bunfig.toml" : "../engine/bunfig.toml", import.meta.url),
)
/** The reaper's entry: the watchdog that ends what a process leaves when it dies (runtime/_reaper-process.ts, bundled as dist/engine/reaper-process.js). */
export const REAPER_ENTRY = fileURLToPath(
  new URL(FROM_SOURCE ? "../../dist/engine/reaper-process.js" : "../engine/reaper-process.js", import.meta.url),
)

/** The probe projects `tool-tester verify` and the conformance tests run (`probes/` at the package's root, shipped with it). */
export const PROBES_DIRECTORY = fileURLToPath(new URL("../../probes", import.meta.url))
