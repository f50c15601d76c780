/**
 * What doctor reports: one reason a tool will not work in opencode as its author expects, with the
 * file to look at and what to do, in one line. `error`: opencode fails (the tool, or every tool);
 * `warning`: it works, but not as the code suggests.
 */
export type Finding = {
  code: FindingCode
  severity: "error" | "warning"
  /** The file to change; null when the problem is not in one file (a plugin spec that resolves nowhere). */
  file: string | null
  /** One line: what is wrong, and what to do. Paths in it are relative to the working directory. */
  message: string
  /** Details for scripts, such as the JSON Schema opencode would send. */
  data?: Record<string, unknown>
}

export type FindingCode =
  /** opencode.json / opencode.jsonc cannot be parsed, or sets a `tool_output` limit, an `attachment` setting or a `plugin` entry opencode refuses: opencode does not start. */
  | "CONFIG_INVALID"
  /** A tool file fails to import (syntax error, missing package, throw at import): opencode's whole tool list fails. */
  | "IMPORT_FAILED"
  /** A plugin is rejected or throws while starting: its tools are missing. */
  | "PLUGIN_LOAD_FAILED"
  /** A plugin function awaits, during init, a client call opencode never answers there: opencode hangs. */
  | "PLUGIN_INIT_HANGS"
  /** A tool or plugin file changed opencode's built-ins while it was imported (or its plugin initialised). */
  | "TOOL_TAMPERED"
  /** An export looks like a tool but lacks description, args or execute: opencode skips it silently. */
  | "IGNORED_EXPORT"
  /** A tool file that exports no tool at all. */
  | "NO_TOOLS"
  /** A file in tools/ has an extension opencode does not load (.mjs, .cjs, .tsx, .mts, .cts, .jsx). */
  | "IGNORED_FILE"
  /** A test file sits in tools/: opencode imports it as a tool. */
  | "TEST_FILE_IN_TOOLS"
  /** A symbolic link in tools/ to a folder that holds it (`loop -> .`): opencode skips it; recursive walks never end. */
  | "SYMLINK_LOOP"
  /**
   * A tool file or plugin entry uses Bun's API (the `Bun` global, modules `bun` and `bun:*`): it works
   * in opencode, which runs tools in Bun, but not under the node engine. Reported under Node only.
   */
  | "BUN_API"
  /** A plugin or config written for opencode 2: tool-tester models opencode 1.x. */
  | "OPENCODE_2"
  /** The opencode the user runs is another minor than the one tool-tester models, or older than the oldest checked. */
  | "OPENCODE_VERSION"
  /** A config folder installed with pnpm: opencode's own npm install there fails slowly, and it starts about 100 s later. */
  | "PNPM_INSTALL"
  /** Args that are not zod 4 schemas, or not an object of them: opencode drops them or sends them verbatim as JSON Schema. */
  | "NON_ZOD_ARGS"
  /** Args made with zod 3: opencode sends the schema objects' internals as JSON Schema. */
  | "ZOD3_SCHEMA"
  /** z.date(), z.bigint() and the like: opencode cannot build its tool list, so no tool is offered at all. */
  | "SCHEMA_UNREPRESENTABLE"
  /** A recursive schema whose `$ref`s point nowhere in what opencode sends. */
  | "DANGLING_REF"
  /** `.default()` / `.prefault()` / `.catch()`: opencode passes raw arguments, so the value is not filled in. */
  | "DEFAULT_NOT_APPLIED"
  /** `.transform()`, `.trim()`, `.toLowerCase()`, `.pipe()`: opencode passes raw arguments, so they do not run. */
  | "TRANSFORM_NOT_APPLIED"
  /** `z.coerce.*`: opencode passes raw arguments, so the value keeps its JSON type. */
  | "COERCE_NOT_APPLIED"
  /** `.refine()` / `.superRefine()` / `.check()`: opencode does not validate custom tools' arguments. */
  | "REFINE_NOT_CHECKED"
  /** A tool name some providers reject (characters, length, first character). */
  | "TOOL_NAME_REJECTED"
  /** A provider rejects the tool as opencode sends it (after opencode's fixes for that provider): see docs/provider-lint.md. */
  | "PROVIDER_REJECTS"
  /** Two tools with one id: opencode keeps only the last. */
  | "TOOL_COLLISION"
  /** A tool called once with example arguments returned what opencode cannot send (a number, an object without output). */
  | "BAD_RESULT"
  /** That call ended its engine (process.exit, a signal, out of memory): in opencode it would end opencode. */
  | "ENDS_OPENCODE"
  /** An error escaped that call outside the promise execute returns: opencode prints it and goes on. */
  | "ESCAPED_ERROR"
  /** A custom tool with the name of a built-in: it replaces the built-in. */
  | "BUILTIN_OVERRIDE"
  /** Two tool ids that differ only in case (one may be a built-in's): two tools in opencode, and a call in another case reaches the lowercase one only. */
  | "TOOL_CASE_CLASH"
  /** The tools' zod schemas come from more than one copy of zod. */
  | "SECOND_ZOD_COPY"
  // preflight: a plugin package as its publish packs it and opencode installs it.
  /** preflight: `npm pack` (or `pnpm pack`, `yarn pack`: the package's manager) failed, so there is no tarball to check. */
  | "PACK_FAILED"
  /** preflight: `npm pack` (or `pnpm pack`, `yarn pack`) ran past `--npm-timeout` (a prepack or prepare script that never ends); preflight ended it and all it started. */
  | "PACK_TIMEOUT"
  /** preflight: `npm pack` or `npm install` exited and left processes running (a script's background process); preflight ended them. */
  | "SCRIPT_LEFT_RUNNING"
  /** preflight: `workspace:` / `catalog:` versions with no pnpm to pack them: npm ships them as they are and cannot install them. */
  | "WORKSPACE_PROTOCOL"
  /** preflight: the package's manager (pnpm, yarn 2+) is not installed and publishConfig overrides fields when it packs: packed with npm, which does not. */
  | "PACKER_NOT_FOUND"
  /** preflight: the yarn found is yarn 1 and the package is published with yarn 2+, whose pack follows other rules: nothing was packed. */
  | "PACKER_TOO_OLD"
  /** preflight: the entry opencode reads (exports["./server"], main, module, index file) is not in the tarball, or there is none. */
  | "ENTRY_NOT_PACKED"
  /** preflight: a module of the package imports a relative file that is not in the tarball. */
  | "FILE_NOT_PACKED"
  /** preflight: a built file in the tarball is older than its TypeScript source. */
  | "STALE_BUILD"
  /** preflight: the entry imports a package (such as @opencode-ai/plugin) that is only in devDependencies: users do not get it. */
  | "DEV_DEPENDENCY_AT_RUNTIME"
  /** preflight: the entry imports a package that package.json does not declare. */
  | "UNDECLARED_DEPENDENCY"
  /** preflight: `engines.opencode` is not a range, or leaves out the opencode version tool-tester follows: opencode does not load the plugin. */
  | "ENGINES_OPENCODE"
  /** preflight: package.json has `"private": true`: npm publish refuses the package (a warning). */
  | "PRIVATE_PACKAGE"
  /** preflight: what publint says about the packed package.json and files. */
  | "PUBLINT"
  /** preflight: what arethetypeswrong says about the tarball's types (ES module resolution). */
  | "TYPES_WRONG"
  /** preflight: npm cannot install the tarball, as opencode would. */
  | "INSTALL_FAILED"
  /** preflight: `npm install` of the tarball ran past `--npm-timeout` (a slow registry, or with --run-scripts an install script that never ends); preflight ended it and all it started. */
  | "INSTALL_TIMEOUT"
  /** preflight: the installed plugin loads but offers no tool. */
  | "PLUGIN_NO_TOOLS"
  /** preflight: a tool called once with arguments that fit its schema returned what opencode cannot send, ended the process, or timed out. */
  | "SMOKE_RUN_FAILED"
  /** preflight --e2e: the real opencode did not offer a tool, failed, or sent no result for a call. */
  | "E2E_FAILED"
