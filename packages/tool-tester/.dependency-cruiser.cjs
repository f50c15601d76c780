// The architecture's rules, checked in CI (`pnpm run check:deps` at the root, run by .ci/run and
// the workflow's check job): no import cycle, type-only imports included, and one direction between
// folders. The layers, bottom to top (`pnpm graph:folders` prints the folder graph):
//   leaves          errors.ts, _is-record.ts, _file-stats.ts, _escape-regexp.ts, _described.ts, _count.ts, package-manager.ts (the
//                   package managers' words),
//                   the other `_*.ts` at src/'s top, did-you-mean.ts, schema/
//   runtime/        facts of the process tool-tester runs in (which engine it is, the programs it
//                   starts and ends, the reaper, escaped errors, the per-user temp folder, the files
//                   found next to the build): imports nothing but the leaves above
//   opencode/       driving the real opencode binary (lookup, version, packages, its process, the
//                   sandbox, the client's server): imports runtime/ and the leaves only
//   core            client/ < discovery/ < config/ < pipeline/, one way each; types.ts, the public
//                   types, is the one type-only file they all name (and that names theirs)
//   project-engine/ the handle a loaded project carries (where its tools run) and its local side
//   engine-client/  the Node side of an engine's process: choosing Bun or Node, starting it, its
//                   channel and protocol, a project loaded there (the handle's remote side)
//   public          load-tools.ts, list-tools.ts, run-tool.ts
//   features        lint/, doctor/, fuzz/, e2e/, eval-cases/ (an eval's cases: read, checked and
//                   graded in an engine's process), tasks/ (a CLI command's task, both sides), eval/
//                   (above e2e/, eval-cases/ and tasks/), verify/
//   engine/         the engine host (serve.ts): runs tasks/ and the public functions in an engine's
//                   process; nothing imports it (the build bundles it as dist/engine/*-serve.js)
//   tops            cli/ (the bin), inspector/ (dev's server), preflight/, vitest/ (the matchers entry)
// A new import against a rule is a new direction: move the shared part down instead.
const { noCircular, options } = require("../../dependency-cruiser.base.cjs")

const FEATURES_AND_TOPS = "^src/(cli|inspector|preflight|vitest|eval|eval-cases|e2e|doctor|fuzz|tasks|lint|verify)/"
const LEAVES =
  "errors\\.ts$|_is-record\\.ts$|_file-stats\\.ts$|_escape-regexp\\.ts$|_described\\.ts$|_count\\.ts$|_shell-quote\\.ts$|_real-path\\.ts$|package-manager\\.ts$"

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
      ["^src/cli/", "^src/vitest/", "^src/index\\.ts$"],
      "eval is reached from its command, the vitest entry's evalSuite and the public types only.",
    ),
    importedOnlyBy(
      "eval-cases-below-eval",
      "eval-cases",
      ["^src/eval/", "^src/tasks/eval-cases-task\\.ts$", "^src/cli/commands/eval-init\\.ts$", "^src/index\\.ts$"],
      "eval-cases/ reads and grades an eval's cases: eval/ runs them, the engine task imports the TS/JS case files (eval imports no user code in its own process), `eval init` writes starter cases.",
    ),
    importsOnly(
      "eval-cases-reads-files-only",
      "eval-cases",
      `^src/(discovery/|pipeline/builtins\\.ts$|did-you-mean\\.ts$|${LEAVES})`,
      "eval-cases/ imports case files as discovery/ imports tool files, and knows the built-in ids: no engine, opencode or eval run of its own.",
    ),
    importedOnlyBy(
      "nothing-imports-the-engine-host",
      "engine",
      [],
      "engine/ is the engine host: it runs the public functions and tasks/ in an engine's process, above them all. What both ends of the channel need is in engine-client/.",
    ),
    importsOnly(
      "runtime-is-a-leaf",
      "runtime",
      `^src/(${LEAVES})`,
      "runtime/ holds the facts of this process that every layer needs: it imports nothing above it.",
    ),
    importsOnly(
      "opencode-drives-the-binary-only",
      "opencode",
      `^src/(runtime/|${LEAVES})`,
      "opencode/ finds and starts the real opencode: it knows processes (runtime/), not the pipeline, e2e or eval that use it.",
    ),
    importsOnly(
      "schema-is-a-leaf",
      "schema",
      `^src/(${LEAVES})`,
      "schema/ turns zod into JSON Schema: it needs nothing of the pipeline.",
    ),
    importsOnly(
      "client-below-discovery",
      "client",
      `^src/(opencode/|runtime/|types\\.ts$|${LEAVES})`,
      "client/ is the opencode server behind input.client: plugins (discovery/) and calls (pipeline/) use it, it uses neither.",
    ),
    importsOnly(
      "discovery-below-config",
      "discovery",
      `^src/(client/|runtime/|types\\.ts$|${LEAVES})`,
      "discovery/ finds and imports files: config/ and pipeline/ read what it finds, it reads neither.",
    ),
    importsOnly(
      "config-below-pipeline",
      "config",
      `^src/(discovery/|runtime/|${LEAVES})`,
      "config/ reads opencode.json: it finds files (discovery/) and nothing else.",
    ),
    importsOnly(
      "pipeline-below-the-engines",
      "pipeline",
      `^src/(config/|discovery/|client/|schema/|runtime/|types\\.ts$|did-you-mean\\.ts$|_[^/]+\\.ts$|${LEAVES})`,
      "pipeline/ is opencode's tool pipeline in this process: where a project runs (project-engine/, engine-client/) is decided above it.",
    ),
    importsOnly(
      "project-engine-runs-the-pipeline",
      "project-engine",
      `^src/(pipeline/|runtime/|types\\.ts$|${LEAVES})`,
      "project-engine/ is the handle and its local side: the remote side (engine-client/) attaches itself to a project, the handle never imports it.",
    ),
    importedOnlyBy(
      "the-handle-is-asked-not-tested",
      "project-engine",
      ["^src/engine-client/", "^src/tasks/", "^src/vitest/", "^src/(run-tool|list-tools)\\.ts$"],
      "Bun-or-Node is chosen once, when a project loads: the public functions and the matchers ask its handle; the remote side attaches itself.",
    ),
    {
      name: "below-the-public-functions",
      comment:
        "The layers under load-tools, list-tools and run-tool never import them, the engine host, a feature or a command.",
      severity: "error",
      from: { path: "^src/(runtime|opencode|client|discovery|config|pipeline|schema|project-engine|engine-client)/" },
      to: {
        path: [
          FEATURES_AND_TOPS,
          "^src/engine/",
          "^src/(load-tools|list-tools|run-tool|external-directory|index)\\.ts$",
        ],
      },
    },
    {
      name: "public-functions-below-features",
      comment:
        "load-tools, list-tools and run-tool are what features and commands build on: they import none, nor the engine host.",
      severity: "error",
      from: { path: "^src/(load-tools|list-tools|run-tool)\\.ts$" },
      to: { path: [FEATURES_AND_TOPS, "^src/engine/"] },
    },
    importsOnly(
      "lint-reads-the-offered-list",
      "lint",
      "^src/(pipeline/|schema/|errors\\.ts$|_is-record\\.ts$|_described\\.ts$|types\\.ts$|did-you-mean\\.ts$|list-tools\\.ts$)",
      "lint/ rules read the offered tool list: no engine, process or opencode of their own.",
    ),
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
