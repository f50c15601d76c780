import { readFileSync } from "node:fs"
import { dirname, isAbsolute, join, relative, sep } from "node:path"
import { printable } from "./printable.ts"

// npm hands the programs it starts every setting it has, each as `npm_config_<key>`: those typed on
// its command line (`npm create tool weather --force`, which parse-args.ts reads back as create-tool's
// flags) and those from its config files and the user's environment alike (`force=true` in ~/.npmrc).
// Only a typed one is the user's word for this run: a `force=true` kept in an .npmrc must not
// overwrite the user's files. So this says where else npm found a key; a key set there is not taken
// as typed, because the two give the same variable and nothing tells them apart.

/**
 * Where npm's config, outside its command line, sets `key` (as its variable is spelled: `force`,
 * `tool_name`), said for a message: `in ~/.npmrc`, the first npmrc file that does in npm's order
 * (project, user, global, npm's own), or `NPM_CONFIG_FORCE in the environment`; undefined when
 * none does.
 * `env` is the one npm gave create-tool: it names the files npm read.
 */
export function npmConfigSource(key: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const variable = `npm_config_${key}`
  // npm reads NPM_CONFIG_FORCE as it reads npm_config_force, and passes a key set in the environment
  // on untouched; it writes only the lowercase form. So another spelling is the user's. The
  // lowercase one is what npm writes for a typed flag, and cannot be told from one (see the docs).
  const spelled = Object.keys(env).find(
    (name) => name !== variable && name.toLowerCase() === variable && env[name] !== undefined,
  )
  if (spelled !== undefined) return `${printable(spelled)} in the environment`
  const home = env["HOME"]
  for (const file of npmrcFiles(env)) {
    if (!npmrcKeys(file).includes(key)) continue
    const fromHome = home === undefined || home === "" ? undefined : relative(home, file)
    const inHome = fromHome !== undefined && !fromHome.startsWith("..") && !isAbsolute(fromHome)
    return `in ${printable(inHome ? `~${sep}${fromHome}` : file)}`
  }
  return undefined
}

// --- internal ---

/**
 * The npmrc files npm read, in its order: the project's (in the folder npm took for the project:
 * the nearest with a package.json or node_modules, else the working folder), the user's, the global
 * one, and the one in npm's own installation. npm passes their paths on, or what they derive from.
 */
function npmrcFiles(env: Readonly<Record<string, string | undefined>>): string[] {
  const files: Array<string | undefined> = [
    env["npm_config_local_prefix"] && join(env["npm_config_local_prefix"], ".npmrc"),
    env["npm_config_userconfig"] || (env["HOME"] && join(env["HOME"], ".npmrc")),
    env["npm_config_globalconfig"] ||
      (env["npm_config_global_prefix"] && join(env["npm_config_global_prefix"], "etc", "npmrc")),
    // npm_execpath is npm's bin/npm-cli.js (npx-cli.js for npx).
    env["npm_execpath"] && join(dirname(dirname(env["npm_execpath"])), "npmrc"),
  ]
  return [...new Set(files.filter((file): file is string => typeof file === "string" && file !== ""))]
}

/**
 * The keys an npmrc file sets outside its sections, as npm's parser (the `ini` package) reads them,
 * each spelled as npm spells its variable (`tool-name` -> `tool_name`, lowercase): a `;` or `#` line
 * is a comment, a `[section]` line starts a section that lasts to the end, a key may be quoted and end
 * in `[]` (a list), and a line without `=` sets its key to true. An unreadable file sets nothing, as
 * for npm.
 */
function npmrcKeys(file: string): string[] {
  let text: string
  try {
    text = readFileSync(file, "utf8")
  } catch {
    return []
  }
  const keys: string[] = []
  for (const line of text.split(/[\r\n]+/)) {
    if (/^\s*([;#]|$)/.test(line)) continue
    if (/^\[[^\]]*\]\s*$/.test(line)) break
    let key = line.split("=")[0]!.trim()
    if (/^(".*"|'.*')$/.test(key)) key = key.slice(1, -1)
    else key = key.split(/[;#]/)[0]!.trim()
    if (key.endsWith("[]") && key.length > 2) key = key.slice(0, -2)
    keys.push(key.replaceAll("-", "_").toLowerCase())
  }
  return keys
}
