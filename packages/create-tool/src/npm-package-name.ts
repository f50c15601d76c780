import { builtinModules } from "node:module"
import { printable, quoted } from "./printable.ts"

// npm's rules for the name of a new package, as validate-npm-package-name 8 (the library npm uses)
// states them: a name is valid for new packages when it raises neither an error nor a warning there.
// Hand-written on purpose (measured): the library is 9 KB without dependencies, so size is not the
// reason; its messages are. They say what npm refuses ("name can only contain URL-friendly
// characters"), and create-tool prints these to the user: here each rule says what to type instead.
// test/npm-package-name.test.ts runs the library's own test cases against them.

/** Longest package name npm accepts. */
const maximumPackageNameLength = 214

/** Problem npm has with `packageName` as the name of a new package, or undefined. */
export function npmPackageNameProblem(packageName: string): string | undefined {
  const shown = quoted(packageName)
  if (packageName === "") return "The package name is empty: give one, such as opencode-my-tool."
  if (packageName.trim() !== packageName) {
    return `${shown} starts or ends with a space: npm package names cannot; remove it.`
  }
  if (packageName.length > maximumPackageNameLength) {
    return `${shown} is ${packageName.length} characters long: npm accepts at most ${maximumPackageNameLength}; choose a shorter name.`
  }
  const lowercase = packageName.toLowerCase()
  if (reservedNames.includes(lowercase))
    return `${shown} is a name npm reserves: choose another, such as opencode-my-tool.`
  const scoped = /^(?:@([^/]+?)\/)?([^/]+?)$/.exec(packageName)
  const name = scoped?.[2] ?? packageName
  // A whole name may not start with ., - or _; the name part of a scoped one only not with a period.
  const leading = /^[._-]/.exec(packageName)?.[0] ?? (name.startsWith(".") ? "." : undefined)
  if (leading !== undefined) {
    return `${shown} starts with "${leading}": npm package names cannot; start it with a letter or digit.`
  }
  if (builtinModules.includes(lowercase)) {
    return `${shown} is the name of a Node.js core module, which npm refuses for new packages: choose another, such as opencode-${printable(lowercase)}.`
  }
  if (lowercase !== packageName) {
    return `${shown} has capital letters: npm package names are lowercase${suchAs(packageName)}.`
  }
  const special = [...(packageName.split("/").pop() ?? "")].find((character) => "~'!()*".includes(character))
  if (special !== undefined) {
    return `${shown} contains ${quoted(special)}: npm refuses ~ ' ! ( ) * in new package names; use letters, digits, - and _.`
  }
  // URL-safe: only what encodeURIComponent leaves as it is, plus the @ and / of a scoped name.
  const parts = scoped === null ? [packageName] : [scoped[1] ?? "", name]
  const unsafe = parts.flatMap((part) => [...part]).find((character) => !/^[A-Za-z0-9\-_.!~*'()]$/.test(character))
  if (unsafe !== undefined) {
    return `${shown} contains ${quoted(unsafe)}, which is not URL-safe: npm package names use lowercase letters, digits, -, . and _${suchAs(packageName)}.`
  }
  return undefined
}

/**
 * A name npm accepts that is close to `packageName` (`My Weather` -> `my-weather`): lowercase, and
 * every run of other characters as one `-`, from its first letter; undefined when that is no valid
 * name either. A suggestion is only ever one that this check accepts.
 */
function npmNameLike(packageName: string): string | undefined {
  // The name part also names the tool folder and id (names.ts): letters, digits, _ and -, from a letter.
  const clean = (part: string) =>
    part
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "-")
      .replace(/-{2,}/g, "-")
      .replace(/^[^a-z]+|[_-]+$/g, "")
      .slice(0, 64)
  const scoped = /^@([^/]+)\/(.+)$/.exec(packageName)
  const suggestion = scoped === null ? clean(packageName) : `@${clean(scoped[1]!)}/${clean(scoped[2]!)}`
  if (suggestion === packageName || suggestion === "" || suggestion.endsWith("/")) return undefined
  return npmPackageNameProblem(suggestion) === undefined ? suggestion : undefined
}

// --- internal ---

function suchAs(packageName: string): string {
  const suggestion = npmNameLike(packageName)
  return suggestion === undefined ? "" : `, such as ${printable(suggestion)}`
}

/** Names npm refuses outright, whatever their case. */
const reservedNames = ["node_modules", "favicon.ico"]
