// The architecture's rules, checked in CI (`pnpm run check:deps` at the root, run by .ci/run and
// the workflow's check job): no import cycle, type-only imports included, and the directions the
// folders keep between them today. The layers, bottom to top:
//   leaves     schema/ (zod to JSON Schema), errors.ts, _is-record.ts
//   config     config/ (opencode.json merging, permissions), above discovery/
//   core       discovery/, pipeline/, engine/, client/: these four still import each other
//              (issue 36 point 1 untangles them); their rules say only what they never import
//   features   lint/ (rules on the offered list), doctor/, fuzz/, e2e/ (the real opencode), tasks/
//              (what an engine does for a command), eval/ (above e2e/ and tasks/)
//   tops       cli/ (the bin), inspector/ (dev's server), preflight/, vitest/ (the matchers entry)
// A new import against a rule is a new direction: move the shared part down instead.
const { noCircular, options } = require("../../dependency-cruiser.base.cjs")

const FEATURES_AND_TOPS = "^src/(cli|inspector|preflight|vitest|eval|e2e|doctor|fuzz|tasks|lint)/"

/** A rule that `folder` imports nothing outside itself but `allowed` (a regular expression of paths). */
function importsOnly(name, folder, allowed, comment) {
  return {
    name,
    comment,
    severity: "error",
    from: { path: `^src/${folder}/` },
    to: { path: "^src/", pathNot: [`^src/${folder}/`, allowed] },
  }
}

/** A rule that nothing outside `folder` and `users` imports `folder`. */
function importedOnlyBy(name, folder, users, comment) {
  return {
    name,
    comment,
    severity: "error",
    from: { path: "^src/", pathNot: [`^src/${folder}/`, ...users] },
    to: { path: `^src/${folder}/` },
  }
}

module.exports = {
  forbidden: [
    noCircular,
    importedOnlyBy(
      "only-cli-imports-cli",
      "cli",
      [],
      "The CLI is the top of the tree: nothing below it may import it.",
    ),
    importedOnlyBy(
      "inspector-is-a-top",
      "inspector",
      ["^src/cli/"],
      "The dev inspector is a command: only the CLI starts it.",
    ),
    importedOnlyBy("preflight-is-a-top", "preflight", ["^src/cli/"], "preflight is a command: only the CLI runs it."),
    importedOnlyBy("vitest-is-a-top", "vitest", [], "The vitest entry is a package entry: nothing in src imports it."),
    importedOnlyBy(
      "eval-is-a-feature",
      "eval",
      ["^src/cli/", "^src/vitest/", "^src/index\\.ts$", "^src/tasks/eval-cases-task\\.ts$"],
      "eval is reached from its command, the vitest entry's evalSuite, the public types, and the engine task that reads and grades TS/JS case files (eval imports no user code in its own process) only.",
    ),
    importsOnly(
      "schema-is-a-leaf",
      "schema",
      "^src/(errors|_is-record)\\.ts$",
      "schema/ turns zod into JSON Schema: it needs nothing of the pipeline.",
    ),
    importsOnly(
      "config-below-pipeline",
      "config",
      "^src/(discovery/|errors\\.ts$|_is-record\\.ts$)",
      "config/ reads opencode.json: it finds files (discovery/) and nothing else.",
    ),
    importsOnly(
      "lint-reads-the-offered-list",
      "lint",
      "^src/(pipeline/|schema/|errors\\.ts$|_is-record\\.ts$|types\\.ts$|did-you-mean\\.ts$|list-tools\\.ts$)",
      "lint/ rules read the offered tool list: no engine, process or opencode of their own.",
    ),
    {
      name: "core-below-features",
      comment: "discovery/, pipeline/, config/ and schema/ are what every feature builds on: they import none.",
      severity: "error",
      from: { path: "^src/(discovery|pipeline|config|schema|client)/" },
      to: { path: FEATURES_AND_TOPS },
    },
    {
      name: "engine-below-commands",
      comment: "engine/ runs tasks for the commands; it never imports a command, eval, e2e, doctor or the inspector.",
      severity: "error",
      from: { path: "^src/engine/" },
      to: { path: "^src/(cli|inspector|preflight|vitest|eval|e2e|doctor)/" },
    },
    {
      name: "features-side-by-side",
      comment:
        "doctor/, fuzz/ and e2e/ are features the commands combine: none imports tasks/, eval/ or another command.",
      severity: "error",
      from: { path: "^src/(doctor|fuzz|e2e)/" },
      to: { path: "^src/(tasks|eval|inspector|preflight|vitest)/" },
    },
  ],
  options,
}
