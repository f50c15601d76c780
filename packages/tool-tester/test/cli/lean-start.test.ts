// What the bin loads before it answers: `--version` needs the manifest only, so it must not load
// the CLI's commands, its engine code or its reports (issue 32: it took 1.7x `node -e 0` when it
// loaded 26 modules); the help needs no engine. A loader hook in the spawned Node lists every
// module it loads.
import { spawn } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { expect, test } from "vitest"
import { collectOutput, packageRoot, useTmpDir } from "../helpers.ts"

/** The package's own modules the bin loads for `args`, relative to the package, in load order. */
async function modulesLoadedFor(
  args: string[],
): Promise<{ loaded: string[]; stdout: string; exitCode: number | null }> {
  const folder = useTmpDir("tool-tester-lean-start-")
  const hooks = path.join(folder, "hooks.mjs")
  writeFileSync(
    hooks,
    `export async function load(url, context, next) {
  if (url.startsWith("file:")) process._rawDebug("LOADED " + url)
  return next(url, context)
}
`,
  )
  const register = path.join(folder, "register.mjs")
  writeFileSync(
    register,
    `import { register } from "node:module"\nregister(${JSON.stringify(pathToFileURL(hooks).href)})\n`,
  )
  const result = await collectOutput(
    spawn(process.execPath, ["--import", pathToFileURL(register).href, path.join(packageRoot, "bin.js"), ...args], {
      cwd: packageRoot,
    }),
  )
  const root = `${pathToFileURL(packageRoot).href}/`
  const loaded = result.stderr
    .split("\n")
    .filter((line) => line.startsWith("LOADED "))
    .map((line) => line.slice("LOADED ".length))
    .filter((url) => url.startsWith(root))
    .map((url) => url.slice(root.length))
  return { loaded, stdout: result.stdout, exitCode: result.exitCode }
}

test("--version and -v load the bin and the Node check, and not even the CLI's entry", {
  timeout: 60_000,
}, async () => {
  for (const flag of ["--version", "-v"]) {
    const { loaded, stdout, exitCode } = await modulesLoadedFor([flag])
    expect(exitCode).toBe(0)
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
    expect(loaded).toEqual(["bin.js", "dist/cli/node-version.js"])
  }
})

test("help and usage errors load none of the engine's modules, nor the commands' shared code", {
  timeout: 60_000,
}, async () => {
  for (const args of [["--help"], ["run", "--help"], ["help", "list"]]) {
    const { loaded, stdout, exitCode } = await modulesLoadedFor(args)
    expect(exitCode, args.join(" ")).toBe(0)
    expect(stdout).toContain("Usage:")
    // The bundles name the modules they hold (`// src/engine-client/find-bun.ts`).
    const held = loaded.flatMap((file) =>
      [...readFileSync(path.join(packageRoot, file), "utf8").matchAll(/^\/\/ (src\/\S+)$/gm)].map((match) => match[1]),
    )
    expect(
      held.filter((source) =>
        /^src\/(engine-client|tasks|runtime)\/|^src\/cli\/(_command|engine-option)\.ts$/.test(source!),
      ),
      args.join(" "),
    ).toEqual([])
  }
})
