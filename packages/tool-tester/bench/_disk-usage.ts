// What a folder takes, measured in Node (no du on Windows): the bytes of its files, as listings and
// package registries count them, and the blocks the file system gave them (st_blocks; Windows
// reports none, so there it is the bytes again). Links are counted once, as links.
import { lstatSync, readdirSync } from "node:fs"
import path from "node:path"

export type DiskUsage = { bytes: number; allocated: number; files: number }

/** `seen` carries hard links already counted from one call to the next. */
export function diskUsage(folder: string, seen = new Set<string>()): DiskUsage {
  const usage: DiskUsage = { bytes: 0, allocated: 0, files: 0 }
  const visit = (entry: string) => {
    const stat = lstatSync(entry, { bigint: true })
    // A hard link (pnpm's store) is one file, whatever number of names it has.
    const id = `${stat.dev}:${stat.ino}`
    if (stat.nlink > 1n && seen.has(id)) return
    seen.add(id)
    usage.bytes += Number(stat.size)
    usage.allocated += stat.blocks > 0n ? Number(stat.blocks) * 512 : Number(stat.size)
    if (stat.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name))
    else usage.files++
  }
  visit(folder)
  return usage
}

/** The biggest top-level packages of a node_modules folder (scoped ones by scope), biggest first; a file hard-linked into two counts for the first. */
export function biggestPackages(nodeModules: string, count: number): { name: string; bytes: number }[] {
  const seen = new Set<string>()
  return readdirSync(nodeModules)
    .filter((name) => !name.startsWith("."))
    .map((name) => ({ name, bytes: diskUsage(path.join(nodeModules, name), seen).bytes }))
    .sort((left, right) => right.bytes - left.bytes)
    .slice(0, count)
}

export const megabytes = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`
