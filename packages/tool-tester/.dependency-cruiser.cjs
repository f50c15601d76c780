// The architecture's rules, checked in CI (`pnpm run check:deps`, run by .ci/run): no import
// cycle, type-only imports included; the engine imports nothing from the CLI; and nothing below
// the CLI imports it (the CLI is the top of the tree: argv, io and reports).
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import cycle, type imports included: split the shared part into a module of its own.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "engine-not-cli",
      comment: "engine/ holds what differs between Bun and Node, and the engine's process: never the CLI.",
      severity: "error",
      from: { path: "^src/engine/" },
      to: { path: "^src/cli/" },
    },
    {
      name: "only-cli-imports-cli",
      comment: "The CLI is the top of the tree: nothing below it may import it.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/cli/" },
      to: { path: "^src/cli/" },
    },
  ],
  options: {
    // Type-only imports count: a cycle of types is still a cycle a reader must untangle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
  },
}
