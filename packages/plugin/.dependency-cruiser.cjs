// The plugin package's rule, checked in CI (`pnpm run check:deps` at the root, run by .ci/run and
// the workflow's check job): no import cycle, type-only imports included.
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import cycle, type imports included: move the shared part (often a type) into a module of its own.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Type-only imports count: a cycle of types is still a cycle a reader must untangle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
  },
}
