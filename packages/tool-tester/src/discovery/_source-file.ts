// Tool, plugin and config files are read whole (by Node's import, our preparer or the config
// parser): a device such as /dev/zero, a FIFO or a file of gigabytes would grow the process
// without bound or wait forever. They are checked first, without opening them.
import { type BigIntStats, readFileSync } from "node:fs"
import { statOf } from "../_file-stats.ts"

/** The largest tool, plugin or config file tool-tester reads: far above any real one. */
const MAX_SOURCE_BYTES = 64 * 1024 * 1024

/** Why `file` must not be read whole (not a regular file, or too large); undefined when it may be, or is missing. */
export function sourceFileProblem(file: string): string | undefined {
  let stats: BigIntStats
  try {
    stats = statOf(file)
  } catch {
    // Missing or unreadable: reading it fails with the system's own reason.
    return undefined
  }
  if (!stats.isFile()) return `is not a regular file (${kindOf(stats)}), so it cannot be read as source`
  if (stats.size > BigInt(MAX_SOURCE_BYTES))
    return `is ${stats.size} bytes, more than the ${MAX_SOURCE_BYTES} bytes tool-tester reads of one file`
  return undefined
}

/**
 * The text of `file`, read whole once sourceFileProblem() has nothing against it: for files read
 * only to advise (a tsconfig.json's paths, a plugin's imports), which must not wait on a FIFO
 * either. Throws an Error naming the problem, or the read's own.
 */
export function readSourceText(file: string): string {
  const problem = sourceFileProblem(file)
  if (problem !== undefined) throw new Error(`${file} ${problem}`)
  return readFileSync(file, "utf8")
}

function kindOf(stats: BigIntStats): string {
  if (stats.isDirectory()) return "a directory"
  if (stats.isFIFO()) return "a FIFO"
  if (stats.isCharacterDevice()) return "a character device"
  if (stats.isBlockDevice()) return "a block device"
  if (stats.isSocket()) return "a socket"
  return "not a file"
}
