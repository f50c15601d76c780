import type { Language } from "./options.ts"
import { omitEntries, type PackageJson } from "./package-json.ts"

// The package.json entries each kind of scaffold needs, cut from the templates' package.json files
// (which hold the TypeScript-with-test case).

/** Entries a test needs: vitest runs it, tool-tester loads the tools as opencode does. */
const testEntries = ["scripts.test", "devDependencies.@opencode-ai/tool-tester", "devDependencies.vitest"]

/** What `.opencode/package.json` (or the global config's) must hold, to be merged into an existing one. */
export function projectPackageJson(template: PackageJson, options: { language: Language; test: boolean }): PackageJson {
  const omitted = [...(options.test ? [] : testEntries)]
  if (options.language === "js") omitted.push("scripts.typecheck", "devDependencies.typescript")
  return omitEntries(template, omitted)
}

/** The package.json of a plugin package. */
export function pluginPackageJson(
  template: PackageJson,
  options: { packageName: string; description: string; language: Language; test: boolean; scripts: boolean },
): PackageJson {
  const omitted = [...(options.test ? [] : testEntries)]
  let packageJson: PackageJson = { ...template, name: options.packageName, description: options.description }
  if (options.language === "js") {
    // No build: opencode (Bun) and Node load src/index.js as it is.
    omitted.push("types", "scripts.build", "scripts.typecheck", "scripts.prepublishOnly", "devDependencies.typescript")
    packageJson = {
      ...packageJson,
      main: "./src/index.js",
      exports: { ".": "./src/index.js", "./server": "./src/index.js", "./package.json": "./package.json" },
      files: ["src"],
      scripts: { ...(packageJson.scripts as Record<string, string>), test: "vitest run" },
    }
  }
  if (options.scripts) packageJson.files = [...(packageJson.files as string[]), "python"]
  return omitEntries(packageJson, omitted)
}
