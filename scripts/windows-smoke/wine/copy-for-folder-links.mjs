// Preloaded (--import) into the Windows Node of the e2e rows, never into the product: Wine 8.0 makes
// neither junctions nor symlinks that resolve. A link to a folder becomes a copy of the folder, so
// what follows the link still reads the same files. Links to files are left to Node. Wine only.
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

const symlink = fsp.symlink
const symlinkSync = fs.symlinkSync
fsp.symlink = async function copyingSymlink(target, link, type) {
  if (!linksAFolder(target, link, type)) return symlink.call(this, target, link, type)
  await fsp.cp(targetOf(target, link), String(link), { recursive: true, verbatimSymlinks: true })
}
fs.symlinkSync = function copyingSymlinkSync(target, link, type) {
  if (!linksAFolder(target, link, type)) return symlinkSync.call(this, target, link, type)
  fs.cpSync(targetOf(target, link), String(link), { recursive: true, verbatimSymlinks: true })
}
fs.promises.symlink = fsp.symlink
syncBuiltinESMExports()
