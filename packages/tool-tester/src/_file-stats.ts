// The one way this code asks for a file's stats synchronously. Node keeps the result of its last
// synchronous stat in one buffer, and its realpath walk (which every require and import goes
// through) reads that buffer to tell a FIFO or a socket when a part of the path is already in its
// cache: after a stat of a FIFO or a socket (a user's plugin, say), it stops early and loads the
// next package by the path of its link, not of its folder. A package whose dependencies sit beside
// its real folder (pnpm's layout) then fails with "Cannot find module", in this process, for the
// rest of its life (seen on Node 20; nodejs/node#51142, open). Stats asked for as bigints go to a
// buffer of their own and leave that one alone. packages/tool-tester/test/file-stats.test.ts shows
// both.
import { type BigIntStats, lstatSync, statSync } from "node:fs"

/** `statSync(file)`, without changing how later imports resolve; throws as it does. */
export function statOf(file: string): BigIntStats {
  return statSync(file, { bigint: true })
}

/** `lstatSync(file)`, without changing how later imports resolve; throws as it does. */
export function lstatOf(file: string): BigIntStats {
  return lstatSync(file, { bigint: true })
}

/** Whether `file` is a regular file, through links; false when it is missing or cannot be reached. */
export function isRegularFile(file: string): boolean {
  try {
    return statOf(file).isFile()
  } catch {
    return false
  }
}
