// create-tool's rules, checked in CI (`pnpm run check:deps` at the root, run by .ci/run and the
// workflow's check job): no import cycle, type-only imports included; and scaffold() never reaches
// the CLI (cli.ts: argv, prompts and colours sit around it, see scaffold.ts).
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import cycle, type imports included: move the shared part (often a type) into a module of its own.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "only-bin-imports-cli",
      comment:
        "cli.ts is the top: the library (index.ts and all it imports) must run without argv, prompts or a terminal.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/cli\\.ts$" },
      to: { path: "^src/(cli|questions)\\.ts$" },
    },
  ],
  options: {
    // Type-only imports count: a cycle of types is still a cycle a reader must untangle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
  },
}
