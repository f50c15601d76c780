// The package manager that ran create-tool, and the one table of the commands it is told to run.
// package-manager-detector's resolveCommand has no words for running in another folder (pnpm
// --dir, yarn --cwd, npm --prefix), which every project command needs, so the table is ours.

export type PackageManager = "npm" | "pnpm" | "yarn" | "bun"

/** A package manager and its version, when known (yarn 1 has no `dlx`). */
export type PackageManagerInfo = { name: PackageManager; version: string | undefined }

/** The package manager from `npm_config_user_agent` (`pnpm/10.3.0 npm/? node/v20...`); npm when unknown. */
export function packageManagerFromUserAgent(userAgent: string | undefined): PackageManagerInfo {
  const match = /^(npm|pnpm|yarn|bun)\/(\S+)/.exec(userAgent ?? "")
  if (match === null) return { name: "npm", version: undefined }
  return { name: match[1] as PackageManager, version: match[2] }
}

/** Whether `packageManager` is yarn 1 (classic), which the version says; a yarn of unknown version counts as 1. */
export function isYarnClassic(packageManager: PackageManagerInfo): boolean {
  return packageManager.name === "yarn" && (packageManager.version?.startsWith("1.") ?? true)
}

/**
 * The package's test script (`script`: `test`, or `test:tools` beside a test script of the user's,
 * test-script.ts) with a vitest flag (`-u`, `--watch`), as `packageManager` runs it from where the
 * next steps run it: from outside the package when `folder` names it (a project's `.opencode`), else
 * in the package's folder. npm needs `--` before the flag; pnpm, yarn and `bun run` pass what follows
 * the script name on.
 */
export function testScriptWith(
  packageManager: PackageManagerInfo,
  folder: string | undefined,
  script: string,
  flag: string,
): string {
  const test =
    folder === undefined
      ? commandsFor(packageManager, script).test
      : projectCommandsFor(packageManager, folder, script).test
  return packageManager.name === "npm" ? `${test} -- ${flag}` : `${test} ${flag}`
}

/**
 * The commands run from outside the package, in `folder` (a project's `.opencode`); `test` runs the
 * script `testScript` (`test` by default), with `run` before any name but `test`: `npm test:tools`
 * is no npm command, and `run` keeps pnpm and yarn from reading a name as one of their own commands.
 */
export function projectCommandsFor(packageManager: PackageManagerInfo, folder: string, testScript = "test") {
  const other = testScript !== "test"
  switch (packageManager.name) {
    case "pnpm":
      return {
        install: `pnpm --dir ${folder} install`,
        test: other ? `pnpm --dir ${folder} run ${testScript}` : `pnpm --dir ${folder} test`,
        exec: `pnpm --dir ${folder} exec`,
        dlx: "pnpm dlx",
      }
    case "yarn": {
      const classic = isYarnClassic(packageManager)
      return {
        // yarn 2 and later install with Plug'n'Play, which neither opencode nor tool-tester loads from.
        ...(classic ? {} : { setup: `yarn --cwd ${folder} config set nodeLinker node-modules` }),
        install: `yarn --cwd ${folder} install`,
        test: other ? `yarn --cwd ${folder} run ${testScript}` : `yarn --cwd ${folder} test`,
        exec: `yarn --cwd ${folder}`,
        dlx: classic ? "npx" : "yarn dlx",
      }
    }
    case "bun":
      // `bun test` would run Bun's own test runner, not the package's test script.
      return {
        install: `bun install --cwd ${folder}`,
        test: `bun run --cwd ${folder} ${testScript}`,
        exec: `bun run --cwd ${folder}`,
        dlx: "bunx",
      }
    default:
      return {
        install: `npm install --prefix ${folder}`,
        test: other ? `npm run ${testScript} --prefix ${folder}` : `npm test --prefix ${folder}`,
        exec: `npx --no --prefix ${folder}`,
        dlx: "npx",
      }
  }
}

/** The commands run in the package's own folder; `test` runs the script `testScript`, as projectCommandsFor's. */
export function commandsFor(packageManager: PackageManagerInfo, testScript = "test") {
  const other = testScript !== "test"
  switch (packageManager.name) {
    case "pnpm": {
      const test = other ? `pnpm run ${testScript}` : "pnpm test"
      return { install: "pnpm install", test, run: "pnpm run", exec: "pnpm exec", dlx: "pnpm dlx" }
    }
    case "yarn": {
      const classic = isYarnClassic(packageManager)
      const test = other ? `yarn run ${testScript}` : "yarn test"
      return {
        ...(classic ? {} : { setup: "yarn config set nodeLinker node-modules" }),
        install: "yarn",
        test,
        run: "yarn run",
        exec: "yarn",
        dlx: classic ? "npx" : "yarn dlx",
      }
    }
    case "bun":
      // `bun test` would run Bun's own test runner, not the package's test script.
      return { install: "bun install", test: `bun run ${testScript}`, run: "bun run", exec: "bun run", dlx: "bunx" }
    default: {
      const test = other ? `npm run ${testScript}` : "npm test"
      return { install: "npm install", test, run: "npm run", exec: "npx", dlx: "npx" }
    }
  }
}
