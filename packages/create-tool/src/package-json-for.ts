import type { Language } from "./options.ts"
import { omitEntries, type PackageJson } from "./package-json.ts"

// The package.json entries each kind of scaffold needs, cut from the templates' package.json files
// (which hold the TypeScript-with-test case).

/**
 * The Node.js versions the generated test runs on: vitest 4 runs on vite 8 and rolldown, which need
 * `^20.19.0 || >=22.12.0` (their `engines`); on Node 20.12 vitest crashes while starting. Written as
 * `engines.node` of a project's `.opencode/package.json` when it gets a test.
 */
export const testNodeVersions = "^20.19.0 || >=22.12.0"

/** Whether Node.js `version` (`22.3.0`) is one of testNodeVersions. */
export function runsGeneratedTests(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number)
  return (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major > 22
}

/**
 * The `resolutions` yarn 1 needs to install what create-tool adds on Node 20 (and on 22 before
 * 22.22.2, 24 before 24.15): the published @opencode-ai/plugin brings effect 4 (beta), whose
 * `ini ^7.0.0` has engines `^22.22.2 || ^24.15.0 || >=26.0.0`, and yarn 1 alone stops an install at
 * a dependency's engines ("The engine "node" is incompatible with this module"); npm, pnpm, yarn 2+
 * and Bun go on. effect loads ini only in its CLI module, which no tool loads, and ini 6 has the same
 * API. Written only when yarn 1 runs create-tool (yarn and Bun read `resolutions`, npm ignores it).
 */
export const yarnClassicResolutions: Readonly<Record<string, string>> = { ini: "^6.0.0" }

/**
 * The `dependenciesMeta` yarn 2+ needs to end its install with "Done" rather than "Done with
 * warnings": it runs no dependency's build scripts by default (yarn 4.18: "esbuild@npm:0.28.2 lists
 * build scripts, but all build scripts have been disabled", and the same for msgpackr-extract), and
 * neither build is needed. esbuild (tool-tester's, so only with a test) finds its binary in its
 * platform package (@esbuild/linux-x64, ...) without its postinstall; msgpackr-extract (msgpackr's,
 * through @opencode-ai/plugin's effect) loads its prebuilt @msgpackr-extract/* package, and msgpackr
 * works without it anyway. `built: false` says so. Written only when yarn 2+ runs create-tool.
 */
export function yarnBerryDependenciesMeta(test: boolean): Record<string, { built: false }> {
  return { ...(test ? { esbuild: { built: false as const } } : {}), "msgpackr-extract": { built: false } }
}

/**
 * Entries a test needs: vitest runs it, tool-tester loads the tools as opencode does. (pnpm's
 * settings about install scripts are in the templates' pnpm-workspace.yaml: pnpm-workspace.ts.)
 */
const testEntries = ["scripts.test", "devDependencies.@opencode-ai/tool-tester", "devDependencies.vitest"]

/**
 * What `.opencode/package.json` (or the global config's) must hold, to be merged into an existing
 * one. The test's script goes under `testScript` (default `test`; `test:tools` beside a test script
 * of the user's: test-script.ts).
 */
export function projectPackageJson(
  template: PackageJson,
  options: { language: Language; test: boolean; testScript?: string; managerFields?: PackageJson | undefined },
): PackageJson {
  const omitted = [...(options.test ? [] : testEntries)]
  // Bun's types: opencode runs tools in Bun, so a TypeScript tool may use `Bun` and type-check.
  if (options.language === "js")
    omitted.push("scripts.typecheck", "devDependencies.typescript", "devDependencies.@types/bun")
  const additions = withManagerFields(omitEntries(template, omitted), options.managerFields)
  if (!options.test) return additions
  const testScript = options.testScript ?? "test"
  const scripts = Object.entries(additions["scripts"] as Record<string, string>).map(
    ([name, command]) => [name === "test" ? testScript : name, command] as const,
  )
  return { ...additions, scripts: Object.fromEntries(scripts), engines: { node: testNodeVersions } }
}

/** The package.json of a plugin package. */
export function pluginPackageJson(
  template: PackageJson,
  options: {
    packageName: string
    description: string
    language: Language
    test: boolean
    scripts: boolean
    managerFields?: PackageJson | undefined
  },
): PackageJson {
  const omitted = [...(options.test ? [] : testEntries)]
  let packageJson: PackageJson = { ...template, name: options.packageName, description: options.description }
  if (options.language === "js") {
    // No build: opencode (Bun) and Node load src/index.js as it is. No type check, so no Bun types.
    omitted.push(
      "types",
      "scripts.build",
      "scripts.typecheck",
      "devDependencies.typescript",
      "devDependencies.@types/bun",
    )
    const scripts = packageJson.scripts as Record<string, string>
    packageJson = {
      ...packageJson,
      main: "./src/index.js",
      exports: { ".": "./src/index.js", "./server": "./src/index.js", "./package.json": "./package.json" },
      files: ["src"],
      // The checks before publishing stay; only the build step goes.
      scripts: { ...scripts, test: "vitest run", prepublishOnly: withoutBuild(scripts["prepublishOnly"] ?? "") },
    }
    if (packageJson.scripts && (packageJson.scripts as Record<string, string>)["prepublishOnly"] === "") {
      omitted.push("scripts.prepublishOnly")
    }
  }
  if (options.scripts) packageJson.files = [...(packageJson.files as string[]), "python"]
  return withManagerFields(omitEntries(packageJson, omitted), options.managerFields)
}

/**
 * `packageJson` with the fields the package manager running create-tool needs (yarn 1's
 * `resolutions`, yarn 2+'s `dependenciesMeta`), after its dependencies; as it is without them.
 */
function withManagerFields(packageJson: PackageJson, fields: PackageJson | undefined): PackageJson {
  return fields === undefined ? packageJson : { ...packageJson, ...structuredClone(fields) }
}

/** A TypeScript package's prepublishOnly without its build step (`npm run build && rest` becomes `rest`). */
function withoutBuild(script: string): string {
  return script
    .split("&&")
    .map((part) => part.trim())
    .filter((part) => part !== "npm run build" && !part.startsWith("tsc "))
    .join(" && ")
}
