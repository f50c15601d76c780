// The tarball installed as opencode installs a plugin named in the "plugin" list of opencode.json:
// with npm, into a fresh folder of its own (opencode's is <cache>/opencode/packages/<name>@latest),
// which brings the package's dependencies and peers but never its devDependencies. That folder is
// also the opencode project preflight loads: its opencode.json names the plugin by package name,
// so it is found in node_modules and loaded exactly as an npm plugin.
import { mkdirSync, writeFileSync } from "node:fs"
import path from "node:path"
import { makeWorktreeRoot } from "../opencode/worktree-root.ts"
import type { Finding } from "../doctor/finding.ts"
import { commandOutput, lastLines, printedLast } from "./_command-output.ts"
import { leftRunningFinding, type PackedPackage } from "./pack-package.ts"

export type InstalledPlugin = {
  /** The opencode project that lists the plugin. */
  project: string
  /** The installed package folder (node_modules/<name>). */
  packageFolder: string
  /** The plugin spec in opencode.json: the package name. */
  spec: string
}

export async function installTarball(
  packed: PackedPackage,
  options: {
    folder: string
    env: Record<string, string | undefined>
    /** Run the install scripts (preinstall, install, postinstall) of the package and its dependencies. */
    runScripts?: boolean
    /** Ends the install at once (Ctrl-C), and throws. */
    signal?: AbortSignal | undefined
    /** Bound of the install with its scripts: past it, everything it started is ended (INSTALL_TIMEOUT). */
    timeoutMs: number
  },
): Promise<{ installed?: InstalledPlugin; findings: Finding[] }> {
  const name = String(packed.manifest["name"] ?? "")
  const project = options.folder
  mkdirSync(project, { recursive: true })
  // A folder under the shared temporary folder: without a worktree root of its own, the loader
  // (and opencode, with --e2e) would also read a `.opencode` planted above it (opencode/worktree-root.ts).
  await makeWorktreeRoot(project, options.env)
  writeFileSync(
    path.join(project, "package.json"),
    `${JSON.stringify({ name: "preflight-project", private: true }, null, 2)}\n`,
  )
  writeFileSync(path.join(project, "opencode.json"), `${JSON.stringify({ plugin: [name] }, null, 2)}\n`)
  const output = await commandOutput(
    "npm",
    // Without scripts unless asked: a package's postinstall is code run at install time, before any
    // check, and what it starts in the background would outlive preflight. With them, in the
    // foreground: npm otherwise reads each script's output through pipes and waits for them to
    // close, which a process the script left running (`server &`) holds open as long as it lives;
    // in the foreground npm goes on when the script exits, and what it left is ended (SCRIPT_LEFT_RUNNING).
    [
      "install",
      packed.tarball,
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      ...(options.runScripts === true ? ["--foreground-scripts"] : ["--ignore-scripts"]),
    ],
    { cwd: project, env: options.env, signal: options.signal, timeoutMs: options.timeoutMs },
  )
  options.signal?.throwIfAborted()
  if (output.timedOut) {
    const scripts =
      options.runScripts === true
        ? ", or look at the install scripts of the package and its dependencies (preinstall, install, postinstall: --run-scripts runs them), one of which may never end"
        : ""
    return {
      findings: [
        {
          code: "INSTALL_TIMEOUT",
          severity: "error",
          file: path.join(packed.directory, "package.json"),
          message: `npm install of the tarball did not finish within ${options.timeoutMs} ms: preflight ended it and all it started; give a slow registry or many dependencies more time with --npm-timeout MS${scripts}${printedLast(output)}`,
          data: { command: "npm install", timeoutMs: options.timeoutMs },
        },
      ],
    }
  }
  const left = output.leftRunning > 0 ? [leftRunningFinding(packed.directory, "npm install", output.leftRunning)] : []
  if (output.exitCode !== 0) {
    return {
      findings: [
        ...left,
        {
          code: "INSTALL_FAILED",
          severity: "error",
          file: path.join(packed.directory, "package.json"),
          message: `npm install of the tarball failed, as it would for opencode (exit ${output.exitCode}): ${lastLines(output)}`,
        },
      ],
    }
  }
  return { installed: { project, packageFolder: path.join(project, "node_modules", name), spec: name }, findings: left }
}
