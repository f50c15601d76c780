// tool-tester preflight: a plugin package checked the way opencode will install and load it. Packs
// it as its publish would (npm, pnpm or yarn 2+: pack-package.ts), checks the tarball (entry, build
// age, runtime dependencies, private, engines, publint, arethetypeswrong), installs it as opencode
// installs a plugin named in opencode.json, and hands the install to `loadInstalled` (the CLI loads
// it in an engine, where user code cannot break the report), whose findings and tool runs join the
// report.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import type { Finding } from "../doctor/finding.ts"
import { ToolTesterError } from "../errors.ts"
import { guard } from "../runtime/reaper.ts"
import { startedByPreflight } from "./_command-output.ts"
import { enginesFindings } from "./engines.ts"
import { type InstalledPlugin, installTarball } from "./install-tarball.ts"
import { publintFindings, typesFindings } from "./lint-tarball.ts"
import { packPackage } from "./pack-package.ts"
import type { Packer } from "./packer.ts"
import { type PluginEntry, pluginEntry } from "./plugin-entry.ts"
import { privateFindings } from "./private-package.ts"
import { dependencyFindings, runtimeImports } from "./runtime-dependencies.ts"
import { staleBuildFindings } from "./stale-build.ts"

export type PreflightOptions = {
  /** The plugin package folder. */
  directory: string
  env: Record<string, string | undefined>
  /** Run the install scripts of the package and its dependencies (npm's default; off unless asked). */
  runScripts?: boolean
  /** Bound of `npm pack` and of `npm install`, each with the scripts it runs (PACK_TIMEOUT, INSTALL_TIMEOUT). */
  npmTimeoutMs: number
  /** The opencode version whose rules apply (engines.opencode). */
  opencodeVersion: string
  /** Loads the installed plugin (findings about it, its tools, their runs). */
  loadInstalled: (installed: InstalledPlugin) => Promise<LoadedReport>
  /** Called as each step starts, for a progress line. */
  onStep?: (step: string) => void
  /** Stops between steps (Ctrl-C); the temporary folders are removed all the same. */
  signal?: AbortSignal
}

/** What loading the installed plugin found. */
export type LoadedReport = {
  findings: Finding[]
  tools: string[]
  runs: unknown[]
  e2e?: unknown
}

export type PreflightReport = {
  package: {
    name: string | null
    version: string | null
    directory: string
    /** The package manager that packed it (pack-package.ts). */
    packer: Packer | null
    /** Every file in the tarball. */
    files: string[]
    entry: PluginEntry | null
  }
  /** The tool ids the plugin offers. */
  tools: string[]
  /** One smoke call per tool. */
  runs: unknown[]
  /** The real opencode's run, with --e2e. */
  e2e?: unknown
  /** Errors first. */
  findings: Finding[]
}

export async function preflight(options: PreflightOptions): Promise<PreflightReport> {
  if (startedByPreflight(options.env))
    throw new ToolTesterError(
      "USAGE",
      "tool-tester preflight runs inside the npm pack of another preflight (a prepack or prepare script of the package runs it), which would pack again without end: run it from prepublishOnly, which npm pack does not run",
    )
  const work = mkdtempSync(path.join(os.tmpdir(), "tool-tester-preflight-"))
  // Removed at exit too: a second Ctrl-C exits at once, without this finally.
  const guarded = guard({ paths: [work] })
  try {
    return await checkPackage(options, realpathSync(work))
  } finally {
    rmSync(work, { recursive: true, force: true })
    guarded.release()
  }
}

// --- internal ---

async function checkPackage(options: PreflightOptions, work: string): Promise<PreflightReport> {
  const step = (name: string) => {
    options.signal?.throwIfAborted()
    options.onStep?.(name)
  }
  const directory = options.directory
  step("packing the package")
  const destination = path.join(work, "pack")
  mkdirSync(destination)
  const { packed, findings } = await packPackage(directory, {
    destination,
    env: options.env,
    signal: options.signal,
    timeoutMs: options.npmTimeoutMs,
  })
  const report: PreflightReport = {
    package: { name: null, version: null, directory, packer: null, files: [], entry: null },
    tools: [],
    runs: [],
    findings,
  }
  if (!packed) return ordered(report)
  report.package = {
    name: typeof packed.manifest["name"] === "string" ? packed.manifest["name"] : null,
    version: typeof packed.manifest["version"] === "string" ? packed.manifest["version"] : null,
    directory,
    packer: packed.packer,
    files: packed.files.map((file) => file.path),
    entry: null,
  }
  const entry = pluginEntry(packed)
  findings.push(...entry.findings)
  report.package.entry = entry.entry ?? null
  findings.push(...privateFindings(packed), ...enginesFindings(packed, options.opencodeVersion))
  const imported = entry.entry ? await runtimeImports(packed, entry.entry.file) : { imports: [], findings: [] }
  findings.push(...imported.findings)
  if (entry.entry) findings.push(...staleBuildFindings(packed, entry.entry.file))
  step("linting the tarball (publint, arethetypeswrong)")
  const tarball = new Uint8Array(readFileSync(packed.tarball))
  findings.push(...(await publintFindings(packed, tarball)), ...(await typesFindings(packed, tarball)))

  if (!entry.entry) return ordered(report)
  step("installing the tarball as opencode installs a plugin")
  const install = await installTarball(packed, {
    folder: path.join(work, "project"),
    env: options.env,
    runScripts: options.runScripts === true,
    signal: options.signal,
    timeoutMs: options.npmTimeoutMs,
  })
  findings.push(...install.findings)
  findings.push(...dependencyFindings(packed, imported.imports, install.installed))
  if (!install.installed) return ordered(report)

  options.signal?.throwIfAborted()
  const loaded = await options.loadInstalled(install.installed)
  // Interrupted during the last step: no report, as after any other step.
  options.signal?.throwIfAborted()
  // Name the package's own files, not their installed copies (removed after the run).
  findings.push(...loaded.findings.map((finding) => inPackage(finding, install.installed!, directory)))
  report.tools = loaded.tools
  report.runs = loaded.runs
  if (loaded.e2e !== undefined) report.e2e = loaded.e2e
  return ordered(report)
}

function inPackage(finding: Finding, installed: InstalledPlugin, directory: string): Finding {
  const swap = (text: string) =>
    text
      .replaceAll(installed.packageFolder, directory)
      .replaceAll(path.join(installed.project, "opencode.json"), "the opencode.json of a fresh opencode project")
      .replaceAll(installed.project, "a fresh opencode project")
  // A file of the fresh project (removed after the run) is no file to change.
  const file =
    finding.file === null || finding.file.startsWith(installed.packageFolder)
      ? finding.file && swap(finding.file)
      : finding.file.startsWith(installed.project)
        ? null
        : finding.file
  return { ...finding, message: swap(finding.message), file }
}

function ordered(report: PreflightReport): PreflightReport {
  const findings = [
    ...report.findings.filter((finding) => finding.severity === "error"),
    ...report.findings.filter((finding) => finding.severity !== "error"),
  ]
  return {
    ...report,
    findings: findings.map(({ code, severity, file, message, data }) =>
      data === undefined ? { code, severity, file, message } : { code, severity, file, message, data },
    ),
  }
}
