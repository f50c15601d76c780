// The fast tier (`pnpm test:fast`), for the inner loop: every project but `install`, without the
// files that drive the real opencode (e2e, eval, conformance, the plugin client), a browser (the
// inspector, the eval report), npm packing, installing and parsing (preflight, the plugin's tarball
// and publint, create-tool's npm and registry checks), the templates' CI (and the docs' test files
// run the same way) and the longest CLI files. Run it before every commit; the whole
// suite (`pnpm test`) runs in CI. Files that mock nothing and leave the process as they found it
// share workers here (scripts/shared-workers.mjs); the whole suite gives every file its own.
import path from "node:path"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import { byWorkerNeeds } from "./scripts/shared-workers.mjs"

const here = path.dirname(fileURLToPath(import.meta.url))

const slow: Record<string, string[]> = {
  plugin: ["test/compat.test.ts", "test/installed-tarball.test.ts", "test/package.test.ts"],
  "create-tool": [
    "test/templates-*.test.ts",
    "test/opencode.test.ts",
    "test/pack.test.ts",
    "test/generated-test.test.ts",
    "test/next-steps-run.test.ts",
    // The real npm and Bun: npm's own argument parsing (parse-args.test.ts covers ours), installs
    // from a registry; and vitest run on the docs' test files, as the templates' CI runs them.
    "test/npm-swallowed-flags.test.ts",
    "test/private-registry.test.ts",
    "test/docs-test-files.test.ts",
    "test/vitest-config-commonjs.test.ts",
  ],
  "tool-tester": [
    "test/e2e/**",
    "test/conformance/**",
    "test/eval/runner*.test.ts",
    "test/eval/eval-cli.test.ts",
    "test/eval/eval-suite.test.ts",
    "test/eval/report-browser.test.ts",
    "test/inspector/**",
    "test/preflight/**",
    "test/client/**",
    "test/cli/e2e.test.ts",
    "test/cli/e2e-call-timeout.test.ts",
    "test/cli/plugin-client.test.ts",
    "test/cli/run.test.ts",
    "test/cli/hostile-corpus.test.ts",
    "test/engine/no-auto-install.test.ts",
    // The slowest of a fast run at load 34 (2026-12-02): opencode's own server behind the plugin
    // client (399 s), the longest CLI file (doctor, 262 s), vitest run inside vitest (the matchers'
    // -u round trips, 229 s), eval's built bin (183 s), and the ones that wait out bounds or
    // signals by design (154 s, 102 s). The whole suite runs them.
    "test/cli/client-server-leaves-nothing.test.ts",
    "test/cli/doctor.test.ts",
    "test/vitest/matchers.test.ts",
    "test/eval/eval-import-isolation.test.ts",
    "test/cli/sigkill-leaves-nothing.test.ts",
    "test/cli/fuzz-slow-calls.test.ts",
    // Then, in the next fast run (1,257 s at load 30-54): the real opencode (e2e --init's script,
    // eval's server: 118 s and 132 s, and failing on their bounds at that load) and the real pnpm,
    // yarn and bun starting the bin (298 s).
    "test/cli/e2e-init.test.ts",
    "test/eval/eval-unwrapped-tools.test.ts",
    "test/cli/package-manager-forms.test.ts",
    // The real opencode, once per probe run.
    "test/verify/verify-opencode.test.ts",
    "test/verify/verify-bounds.test.ts",
    "test/verify/verify-copy-failures.test.ts",
    // The real opencode beside the bun engine (22 s and 7 s of a quiet fast run on 2026-12-05,
    // the slowest and the seventh).
    "test/engine/no-bunfig.test.ts",
    // Stops reading the engine's pipes for 5 s, by design (past the engine's 1 s flush bound).
    "test/engine/console-after-flush-bound.test.ts",
    // Watches a reaper look for its parent for seconds, by design.
    "test/reaper-parent-gone.test.ts",
    // Eval's files that came after the list: the real opencode behind the keyword model (476 s and
    // 131 s, the slowest two of a fast run at load 19-34 on 2026-12-02, 940 s wall; the first alone
    // was half of it) and a browser (14 s). The whole suite runs them.
    "test/eval/eval-variants-without.test.ts",
    "test/eval/eval-case-file-isolation.test.ts",
    "test/eval/report-arms-browser.test.ts",
    // The five slowest of a quiet fast run on 2026-12-02 (129 s of tests; 9-17 s each, 30% of the
    // files' time): an engine or the built bin per case, each case twice, under both engines or
    // under each signal, on purpose. The rest of test/engine and test/cli covers the same code here.
    "test/engine/escaped-errors.test.ts",
    "test/engine/engine-stdin-injection.test.ts",
    "test/engine/engine-channel.test.ts",
    "test/cli/fuzz.test.ts",
    "test/cli/signals-end-everything.test.ts",
  ],
}

export default defineConfig({
  test: {
    projects: [
      ...Object.entries(slow).flatMap(([name, files]) => {
        const { own, shared } = byWorkerNeeds(path.join(here, "packages", name), "test")
        const base = { extends: `./packages/${name}/vitest.config.ts`, root: `./packages/${name}` }
        // `extends` adds to the package's lists (include, exclude): each project excludes the other's files.
        return [
          { ...base, test: { exclude: ["**/node_modules/**", ...files, ...shared] } },
          {
            ...base,
            test: {
              name: `${name} (shared workers)`,
              exclude: ["**/node_modules/**", ...files, ...own],
              isolate: false,
              typecheck: { enabled: false },
            },
          },
        ]
      }),
      "test/scripts",
    ],
    maxWorkers: 3,
  },
})
