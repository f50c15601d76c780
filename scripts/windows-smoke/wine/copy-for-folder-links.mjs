// Preloaded (--import) into the Windows Node of the e2e rows, never into the product: Wine 8.0 makes
// neither junctions nor symlinks that resolve. A link to a folder becomes a copy of the folder, so
// what follows the link still reads the same files. Links to files are left to Node. Wine only.
// A link to one package (a folder with a package.json, inside a node_modules folder) is followed to
// its real folder by Bun and Node, whose imports then find its dependencies beside it: the copy gets
// them in a node_modules folder of its own, found the same way from the real folder.
import fs from "node:fs"
import fsp from "node:fs/promises"
import { syncBuiltinESMExports } from "node:module"
import path from "node:path"

function linksAFolder(target, link, type) {
  if (type === "junction") return true
  const absolute = path.resolve(path.dirname(path.resolve(String(link))), String(target))
  return fs.statSync(absolute, { throwIfNoEntry: false })?.isDirectory() ?? false
}
function targetOf(target, link) {
  return path.resolve(path.dirname(path.resolve(String(link))), String(target))
}

/** The folder `name` resolves to from `from` (node_modules folders up from it), or undefined. */
function packageFolder(name, from) {
  for (let folder = from; ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, "node_modules", name)
    if (fs.existsSync(path.join(candidate, "package.json"))) return fs.realpathSync(candidate)
    if (path.dirname(folder) === folder) return undefined
  }
}

/** Copies into `copy`'s node_modules what the package at `real` depends on, as found from there. */
function copyDependencies(real, copy, seen = new Set([real])) {
  const manifest = JSON.parse(fs.readFileSync(path.join(real, "package.json"), "utf8"))
  const names = Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })
  for (const name of names) {
    const target = path.join(copy, "node_modules", name)
    if (fs.existsSync(target)) continue
    const found = packageFolder(name, real)
    if (found === undefined || seen.has(found)) continue
    seen.add(found)
    fs.cpSync(found, target, { recursive: true, verbatimSymlinks: true })
    copyDependencies(found, target, seen)
  }
}

function copyFolder(target, link) {
  const real = fs.realpathSync(targetOf(target, link))
  fs.cpSync(real, String(link), { recursive: true, verbatimSymlinks: true })
  const isPackage = fs.existsSync(path.join(real, "package.json")) && real.split(path.sep).includes("node_modules")
  if (isPackage) copyDependencies(real, path.resolve(String(link)))
}

const symlink = fsp.symlink
const symlinkSync = fs.symlinkSync
fsp.symlink = async function copyingSymlink(target, link, type) {
  if (!linksAFolder(target, link, type)) return symlink.call(this, target, link, type)
  copyFolder(target, link)
}
fs.symlinkSync = function copyingSymlinkSync(target, link, type) {
  if (!linksAFolder(target, link, type)) return symlinkSync.call(this, target, link, type)
  copyFolder(target, link)
}
fs.promises.symlink = fsp.symlink
syncBuiltinESMExports()
