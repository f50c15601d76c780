// Finding a program as the user's shell does, on every OS, and what to start for it. On Windows the
// lookup is `which`'s: the current folder, then PATH with PATHEXT, so `npm` is npm.cmd and never the
// extensionless POSIX script npm keeps beside it. Elsewhere it is the shell's walk of PATH, by the
// same rules as `which`, done here: it is on the way to every bun engine's start (the `opencode` on
// PATH), and loading `which` and `isexe` there through require() took ~10 ms, the walk well under 1.
// A Windows `.cmd` shim runs only through cmd.exe, whose quoting differs from every other program's,
// so the program behind it is started instead where the shim says which: npm's cmd-shim (`npm i -g`,
// node_modules/.bin) read by npm's own `read-cmd-shim`, and the npm.cmd/npx.cmd that Node's
// installer lays beside node.exe. Any other shim is left to cross-spawn, which runs it through
// cmd.exe with its arguments escaped (start-program.ts).
import { closeSync, openSync, readSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import { isRegularFile, statOf } from "../_file-stats.ts"

export type ProgramEnvironment = Record<string, string | undefined>

/**
 * Whether `command` is a program's name, which a shell looks up on PATH (`opencode`), rather than a
 * path to one (`./opencode`, `bin\opencode`, `/usr/bin/opencode`): it holds no folder separator.
 */
export function isCommandName(command: string): boolean {
  return !/[\\/]/.test(command) && command !== "." && command !== ".."
}

/** The file `name` starts from PATH (PATHEXT on Windows) in `env`, or undefined. A name with a path is checked as it is. */
export function findProgram(name: string, env: ProgramEnvironment = process.env): string | undefined {
  if (process.platform !== "win32") return onPosixPath(name, variable(env, "PATH") ?? "")
  const which = load<typeof import("which")>("which")
  const pathExt = variable(env, "PATHEXT")
  const found = which.sync(name, {
    path: variable(env, "PATH") ?? "",
    ...(pathExt === undefined ? {} : { pathExt }),
    nothrow: true,
  })
  return found ?? undefined
}

/**
 * What to start for the program file `file`: the file itself; for a `.cmd`/`.bat` shim whose target
 * is known, that target (an executable) or Node with it (a Node script). Else the shim, which
 * cross-spawn runs through cmd.exe.
 */
export function programCommand(file: string, env: ProgramEnvironment = process.env): [string, ...string[]] {
  if (!/\.(cmd|bat)$/i.test(file)) return [file]
  const target = shimTarget(file)
  if (target === undefined) return [file]
  if (/\.(exe|com)$/i.test(target) || startsWith(target, "MZ")) return [target]
  if (/\.[cm]?js$/i.test(target) || /^#!.*\bnode\b/.test(firstLine(target))) {
    const node = nodeFor(file, env)
    if (node !== undefined) return [node, target]
  }
  return [file]
}

// --- internal ---

/**
 * The first file `name` names on `searchPath` that this user may run: a name with a slash is that
 * file alone; an empty entry is the current folder, and an entry may be in double quotes (as `which`
 * reads them).
 */
function onPosixPath(name: string, searchPath: string): string | undefined {
  if (name.includes("/")) {
    const file = (name.startsWith("./") ? "./" : "") + path.join(name)
    return mayRun(file) ? file : undefined
  }
  for (const entry of searchPath.split(path.delimiter)) {
    const file = path.join(/^".*"$/.test(entry) ? entry.slice(1, -1) : entry, name)
    if (mayRun(file)) return file
  }
  return undefined
}

/** A regular file with an execute bit this user has: for everyone, for a group of theirs, for its owner, or any for root. */
function mayRun(file: string): boolean {
  let stats: ReturnType<typeof statOf>
  try {
    stats = statOf(file)
  } catch {
    return false
  }
  if (!stats.isFile()) return false
  const uid = process.getuid?.()
  const groups = process.getgroups?.() ?? []
  const gid = process.getgid?.() ?? groups[0]
  if (uid === undefined || gid === undefined) return false
  const mode = Number(stats.mode)
  const owner = Number(stats.uid)
  const group = Number(stats.gid)
  return (
    (mode & 0o001) !== 0 ||
    ((mode & 0o010) !== 0 && (group === gid || groups.includes(group))) ||
    ((mode & 0o100) !== 0 && owner === uid) ||
    ((mode & 0o110) !== 0 && uid === 0)
  )
}

/** The file a shim starts, when it exists: npm's cmd-shim format, or Node's own npm.cmd and npx.cmd. */
function shimTarget(file: string): string | undefined {
  const folder = path.dirname(file)
  let written: string | undefined
  try {
    written = load<{ sync: (file: string) => string }>("read-cmd-shim").sync(file)
  } catch {
    // Not npm's format (or unreadable): Node's installer's npm.cmd keeps npm-cli.js beside it.
    const name = path
      .basename(file)
      .replace(/\.(cmd|bat)$/i, "")
      .toLowerCase()
    if (name === "npm" || name === "npx") written = `node_modules/npm/bin/${name}-cli.js`
  }
  if (written === undefined) return undefined
  // The shim writes Windows separators; read on any OS (tests), they are this OS's.
  const target = path.resolve(folder, ...written.split(/[\\/]/))
  return isRegularFile(target) ? target : undefined
}

/** The Node a cmd-shim would start: node.exe beside it, else `node` on PATH, else this Node. */
function nodeFor(shim: string, env: ProgramEnvironment): string | undefined {
  const beside = path.join(path.dirname(shim), process.platform === "win32" ? "node.exe" : "node")
  if (isRegularFile(beside)) return beside
  return findProgram("node", env) ?? (typeof process.versions.bun === "string" ? undefined : process.execPath)
}

/** An environment variable as Windows reads it: names are case-insensitive there (`Path`). */
function variable(env: ProgramEnvironment, name: string): string | undefined {
  if (env[name] !== undefined) return env[name]
  const key = Object.keys(env).find((key) => key.toUpperCase() === name)
  return key === undefined ? undefined : env[key]
}

function firstLine(file: string): string {
  return head(file, 128).toString("latin1").split("\n")[0] ?? ""
}

function startsWith(file: string, prefix: string): boolean {
  return head(file, prefix.length).toString("latin1") === prefix
}

function head(file: string, length: number): Buffer {
  const buffer = Buffer.alloc(length)
  let descriptor: number | undefined
  try {
    descriptor = openSync(file, "r")
    return buffer.subarray(0, readSync(descriptor, buffer, 0, length, 0))
  } catch {
    return Buffer.alloc(0)
  } finally {
    if (descriptor !== undefined) closeSync(descriptor)
  }
}

/** Loaded on first use: most runs start no program, and the engine's start stays light. */
function load<Module>(name: string): Module {
  return createRequire(import.meta.url)(name) as Module
}
