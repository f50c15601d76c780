// create-tool's rules, checked in CI (`pnpm run check:deps` at the root, run by .ci/run and the
// workflow's check job): no import cycle, type-only imports included; and scaffold() never reaches
// the CLI (cli.ts and _run-command-line.ts: argv, prompts and colours sit around it, see scaffold.ts).
const { noCircular, options } = require("../../dependency-cruiser.base.cjs")

module.exports = {
  forbidden: [
    noCircular,
    {
      name: "only-bin-imports-cli",
      comment:
        "cli.ts and _run-command-line.ts are the top: the library (index.ts and all it imports) must run without argv, prompts or a terminal.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(cli|_run-command-line)\\.ts$" },
      to: { path: "^src/(cli|_run-command-line|questions)\\.ts$" },
    },
  ],
  options,
}
