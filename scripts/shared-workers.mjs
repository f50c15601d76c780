// Which test files of the fast tier may share a vitest worker (vitest.fast.config.ts). Starting a
// worker for each file (vitest's isolation) was about a third of the fast tier's CPU: most files
// import and run the same source, and on two cores that CPU is the tier's wall time. A file that
// changes what the next file in its worker would see gets a worker of its own, as in the whole
// suite, which keeps every file isolated: the two tiers together catch a file that leaks into the
// next and a file that passes only after another.

import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"

/**
 * What a file does that outlives it in its worker: a mocked or reset module (the mock stays in the
 * module cache), a stubbed global or variable, fake timers, the working directory, the environment
 * or a property of `process` or `globalThis` changed by the test itself.
 */
const CHANGES_WORKER = new RegExp(
  [
    String.raw`\bvi\.(mock|doMock|unmock|hoisted|resetModules|stubGlobal|stubEnv|useFakeTimers)\b`,
    String.raw`process\.chdir\(`,
    String.raw`process\.env(\.\w+|\[[^\]]+\])\s*=[^=]`,
    String.raw`delete process\.env`,
    String.raw`Object\.defineProperty\((process|globalThis)\b`,
  ].join("|"),
)

/**
 * The `*.test.ts` files under `folder` (recursively), as paths relative to `base` with forward
 * slashes (vitest's globs): `own` need a worker each, `shared` may share one.
 * @param {string} base
 * @param {string} folder
 * @returns {{ own: string[], shared: string[] }}
 */
export function byWorkerNeeds(base, folder) {
  const own = []
  const shared = []
  for (const file of readdirSync(path.join(base, folder), { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".test.ts")) continue
    const relative = path.join(folder, file).split(path.sep).join("/")
    const text = readFileSync(path.join(base, folder, file), "utf8")
    ;(CHANGES_WORKER.test(text) ? own : shared).push(relative)
  }
  return { own: own.sort(), shared: shared.sort() }
}
