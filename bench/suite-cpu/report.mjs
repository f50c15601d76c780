// What suite-cpu prints: one run's CPU by runtime, by folder and by test file; or two runs side by
// side (a baseline and this checkout, recorded together), with the change of the total against a
// budget.
import os from "node:os"
import { folderOf } from "./attribute.mjs"

/** Lines for one attributed run (attribute.mjs). */
export function singleReport({ total, leftOut, wall, byFile, byRuntime, matched, files, exact }, top) {
  const lines = [
    `CPU ${total.toFixed(0)} s in ${wall.toFixed(0)} s of tests: ${(total / wall).toFixed(2)} cores busy on average (${os.availableParallelism()} here); ${matched} of ${files} files matched to their worker`,
  ]
  lines.push(
    exact
      ? "The total is the run's control group's: every process it started, those whose parent ended first included\n"
      : `Left out: ${leftOut.toFixed(0)} s of CPU by processes this run did not start\n`,
  )
  lines.push("By runtime (processes; those over 2 s of CPU):")
  for (const [runtime, entry] of [...byRuntime].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 8)) {
    lines.push(
      `  ${entry.cpu.toFixed(0).padStart(6)} s  ${percent(entry.cpu, total)}  ${runtime} (${entry.processes}; ${entry.heavy})`,
    )
  }
  lines.push("\nBy folder of test files (files):")
  for (const [folder, sum] of [...byFolder(byFile)].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 12)) {
    lines.push(`  ${sum.cpu.toFixed(0).padStart(6)} s  ${percent(sum.cpu, total)}  ${folder} (${sum.files})`)
  }
  lines.push(`\nThe ${top} files that cost the most CPU (with all they started):`)
  for (const [file, entry] of [...byFile].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, top)) {
    const runtimes = [...entry.runtimes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name, cpu]) => `${name.split(" ")[0]} ${cpu.toFixed(0)}`)
      .join(", ")
    lines.push(`  ${entry.cpu.toFixed(1).padStart(7)} s  ${file}  [${runtimes}]`)
  }
  return lines
}

/**
 * Lines for a baseline and this checkout recorded side by side: totals, the folders and the files
 * that changed most, and the verdict: PASS when this checkout's total is at most `budget` (a
 * fraction: 0.05) above the baseline's.
 */
export function comparisonReport(base, head, { top, budget, names }) {
  const change = head.total / base.total - 1
  const lines = [
    `${"".padEnd(LABEL)} ${names.base.padStart(12)} ${names.head.padStart(12)}  change`,
    row("CPU, whole run (s)", base.total, head.total, 1),
    row("tests' wall time (s)", base.wall, head.wall, 1),
    row("cores busy on average", base.total / base.wall, head.total / head.wall, 2),
    row("test files matched to their worker", base.matched, head.matched),
    row("test files", base.files, head.files),
    "",
    'A file not matched to its worker is counted in "vitest itself", with all it started.',
    "",
    "By folder of test files (CPU s):",
  ]
  const folders = union(byFolder(base.byFile), byFolder(head.byFile))
  for (const [folder, [a, b]] of sortByLarger(folders).slice(0, 14)) lines.push(row(`  ${folder}`, a?.cpu, b?.cpu, 1))
  lines.push("", `The ${top} files whose CPU changed most (s):`)
  const files = union(base.byFile, head.byFile)
  const moved = [...files].sort((x, y) => Math.abs(delta(y[1])) - Math.abs(delta(x[1]))).slice(0, top)
  for (const [file, [a, b]] of moved) lines.push(row(`  ${file}`, a?.cpu, b?.cpu, 1))
  const verdict = change <= budget ? "PASS" : "FAIL"
  lines.push(
    "",
    `${verdict}  the suite's CPU is ${signed(change)} against ${names.base} (budget: at most ${signed(budget)}; both recorded side by side)`,
  )
  return { lines, pass: change <= budget, change }
}

// --- internal ---

/** Width of the labels of comparisonReport's rows; longer ones keep their end (a file's name). */
const LABEL = 60

function byFolder(byFile) {
  const folders = new Map()
  for (const [file, entry] of byFile) {
    const folder = file.startsWith("(") ? file : folderOf(file)
    const sum = folders.get(folder) ?? { cpu: 0, files: 0 }
    sum.cpu += entry.cpu
    sum.files++
    folders.set(folder, sum)
  }
  return folders
}

function union(a, b) {
  const both = new Map()
  for (const [key, value] of a) both.set(key, [value, undefined])
  for (const [key, value] of b) both.set(key, [both.get(key)?.[0], value])
  return both
}

function sortByLarger(entries) {
  const larger = ([, [a, b]]) => Math.max(a?.cpu ?? 0, b?.cpu ?? 0)
  return [...entries].sort((x, y) => larger(y) - larger(x))
}

function delta([a, b]) {
  return (b?.cpu ?? 0) - (a?.cpu ?? 0)
}

function row(label, a, b, digits = 0) {
  const cell = (value) => (value === undefined ? "-" : value.toFixed(digits)).padStart(12)
  const change =
    a === undefined ? "new" : b === undefined ? "gone" : a === 0 ? (b === 0 ? "+0.0%" : "new") : signed(b / a - 1)
  const name = label.length > LABEL ? `…${label.slice(1 - LABEL)}` : label.padEnd(LABEL)
  return `${name} ${cell(a)} ${cell(b)}  ${change}`
}

function signed(fraction) {
  const value = (100 * fraction).toFixed(1)
  return `${fraction >= 0 ? "+" : ""}${value}%`
}

function percent(part, total) {
  return `${((100 * part) / total).toFixed(0).padStart(3)}%`
}
