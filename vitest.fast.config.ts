// The fast tier (`pnpm test:fast`), for the inner loop: every project but `install`, without the
// files that drive the real opencode (e2e, eval, conformance, the plugin client), a browser (the
// inspector, the eval report), npm packing, installing and parsing (preflight, the plugin's tarball
// and publint, create-tool's npm and registry checks), the templates' CI (and the docs' test files
// run the same way) and the longest CLI files. Run it before every commit; the whole
// suite (`pnpm test`) runs in CI.
import { defineConfig } from "vitest/config"

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
  ],
}

export default defineConfig({
  test: {
    projects: Object.entries(slow).map(([name, files]) => ({
      extends: `./packages/${name}/vitest.config.ts`,
      root: `./packages/${name}`,
      test: { exclude: ["**/node_modules/**", ...files] },
    })),
    maxWorkers: 3,
  },
})
