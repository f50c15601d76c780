// What every package's .dependency-cruiser.cjs starts from: no import cycle, type-only imports
// included (a cycle of types is still a cycle a reader must untangle), read with the package's
// tsconfig.json. `pnpm check:deps` runs them all (in .ci/run and the workflow's check job).
module.exports = {
  noCircular: {
    name: "no-circular",
    comment: "An import cycle, type imports included: move the shared part (often a type) into a module of its own.",
    severity: "error",
    from: {},
    to: { circular: true },
  },
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
  },
}
