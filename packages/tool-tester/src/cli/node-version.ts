// The Node version check bin.js runs before anything else: tool-tester needs Node >= 20.19
// (package.json "engines"; require(esm) and the module APIs it uses), and older Node would fail
// later with an error that names none of that. This file is imported by bin.js on any Node, so it
// is written in syntax every Node since 14 parses: no `?.`, no `??`, no class fields.

/** The oldest Node tool-tester runs on (keep in step with "engines" in package.json). */
export const MINIMUM_NODE = "20.19.0"

/** The exit code when Node is too old: 1, the code of every problem with how tool-tester was started. */
export const EXIT_NODE_TOO_OLD = 1

/** The one line to print when `version` (such as `process.versions.node`) is too old, or undefined when it will do. */
export function nodeVersionProblem(version: string): string | undefined {
  if (compareVersions(version, MINIMUM_NODE) >= 0) return undefined
  return `tool-tester needs Node.js ${MINIMUM_NODE} or newer, and this is Node.js ${version}: install a current Node (https://nodejs.org, or \`nvm install 22\`) and run it again.`
}

// --- internal ---

/** Compares two `major.minor.patch` versions (a pre-release suffix is ignored). */
function compareVersions(a: string, b: string): number {
  const left = parts(a)
  const right = parts(b)
  for (let index = 0; index < 3; index++) {
    const difference = (left[index] || 0) - (right[index] || 0)
    if (difference !== 0) return difference
  }
  return 0
}

function parts(version: string): number[] {
  return version
    .replace(/^v/, "")
    .split(/[.-]/)
    .slice(0, 3)
    .map((part) => Number.parseInt(part, 10) || 0)
}
