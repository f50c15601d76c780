import { builtinModules } from "node:module"
import { printable, quoted } from "./printable.ts"

// npm's rules for the name of a new package, as validate-npm-package-name 8 (the library npm uses)
// states them: a name is valid for new packages when it raises neither an error nor a warning there.
// A dozen lines of rules are not worth a dependency; here they are, each with a message that says
// what to do. test/npm-package-name.test.ts runs the library's own test cases against them.

/** Longest package name npm accepts. */
export const maximumPackageNameLength = 214

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
    return `${shown} has capital letters: npm package names are lowercase, such as ${printable(lowercase)}.`
  }
  const special = [...(packageName.split("/").pop() ?? "")].find((character) => "~'!()*".includes(character))
  if (special !== undefined) {
    return `${shown} contains ${quoted(special)}: npm refuses ~ ' ! ( ) * in new package names; use letters, digits, - and _.`
  }
  // URL-safe: only what encodeURIComponent leaves as it is, plus the @ and / of a scoped name.
  const parts = scoped === null ? [packageName] : [scoped[1] ?? "", name]
  const unsafe = parts.flatMap((part) => [...part]).find((character) => !/^[A-Za-z0-9\-_.!~*'()]$/.test(character))
  if (unsafe !== undefined) {
    return `${shown} contains ${quoted(unsafe)}, which is not URL-safe: npm package names use lowercase letters, digits, -, . and _.`
  }
  return undefined
}

// --- internal ---

/** Names npm refuses outright, whatever their case. */
const reservedNames = ["node_modules", "favicon.ico"]
