import { writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { attribute, indexProcesses } from "../../bench/suite-cpu/attribute.mjs"
import { cpuSeconds, createGroup, hierarchies, parseCpuStat, removeGroup } from "../../bench/suite-cpu/cgroup.mjs"
import { comparisonReport } from "../../bench/suite-cpu/report.mjs"
import { useTmpDir } from "../install/_run.ts"

const root = "/repo"
const file = `${root}/packages/x/test/a.test.ts`

/** A run: this shell (1000) started vitest (10), whose worker (11) ran a.test.ts and started a bin (12). */
function processes() {
  const at = (pid: number, name: string, cpu: number, parent: number) => ({
    pid,
    name,
    cpu,
    parent,
    start: 100,
    end: 160,
  })
  return indexProcesses([
    at(10, "node", 4, 1000),
    at(11, "node", 5, 10),
    at(12, "node", 3, 11),
    // An engine whose parent (the bin) ended first: the kernel made init its parent.
    at(13, "JITWorker", 2, 1),
    // Something of another shell's, beside the run.
    at(20, "sh", 9, 7),
  ])
}
const workers = new Map([[11, { vitest: 10, files: [file] }]])
const report = { testResults: [{ name: file, startTime: 100_000, endTime: 150_000 }] }

describe("suite-cpu's attribution", () => {
  test("a file gets its worker and what the worker started; an orphan is outside a test file; another shell's is left out", () => {
    const run = attribute(processes(), workers, report, { root })
    expect(Object.fromEntries([...run.byFile].map(([name, entry]) => [name, entry.cpu]))).toEqual({
      "packages/x/test/a.test.ts": 8,
      "(vitest itself: collecting, transforming, type tests)": 4,
      "(outside a test file)": 2,
    })
    expect(run.total).toBe(14)
    expect(run.leftOut).toBe(9)
    expect(run.exact).toBe(false)
  })

  test("with the run's group total, outside a test file is what the group used beyond the matched processes", () => {
    // The group counted 15.5 s: the matched 12, the orphan's 2, and 1.5 s accounting's clock ticks missed.
    const run = attribute(processes(), workers, report, { root, groupCpu: 15.5 })
    expect(run.byFile.get("packages/x/test/a.test.ts")?.cpu).toBe(8)
    expect(run.byFile.get("(outside a test file)")?.cpu).toBe(3.5)
    expect(run.total).toBe(15.5)
    expect(run.exact).toBe(true)
  })
})

describe("suite-cpu's comparison", () => {
  const runOf = (total: number, fileCpu: number) => ({
    total,
    wall: 100,
    matched: 1,
    files: 1,
    byFile: new Map([
      ["packages/x/test/a.test.ts", { cpu: fileCpu }],
      ["(outside a test file)", { cpu: total - fileCpu }],
    ]),
  })
  const options = { top: 5, budget: 0.05, names: { base: "baseline", head: "this" } }

  test("passes at or under the budget above the baseline, fails over it, and says by how much", () => {
    const under = comparisonReport(runOf(1000, 600), runOf(1040, 640), options)
    expect(under.pass).toBe(true)
    expect(under.lines.at(-1)).toBe(
      "PASS  the suite's CPU is +4.0% against baseline (budget: at most +5.0%; both recorded side by side)",
    )
    const over = comparisonReport(runOf(1000, 600), runOf(1060, 660), options)
    expect(over.pass).toBe(false)
    expect(over.lines.at(-1)).toMatch(/^FAIL {2}the suite's CPU is \+6\.0% against baseline/)
    const less = comparisonReport(runOf(1000, 600), runOf(850, 450), options)
    expect(less.pass).toBe(true)
    expect(less.lines.at(-1)).toMatch(/-15\.0% against baseline/)
  })

  test("lists each file with both runs' CPU and the change, a file only one run has as new or gone", () => {
    const base = runOf(100, 60)
    const head = { ...runOf(100, 60), byFile: new Map([...runOf(100, 60).byFile, ["test/new.test.ts", { cpu: 5 }]]) }
    base.byFile.set("test/old.test.ts", { cpu: 7 })
    const { lines } = comparisonReport(base, head, options)
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}test\/old\.test\.ts +7\.0 +- {2}gone$/))
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}test\/new\.test\.ts +- +5\.0 {2}new$/))
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}packages\/x\/test\/a\.test\.ts +60\.0 +60\.0 {2}\+0\.0%$/))
  })
})

describe("suite-cpu's control groups", () => {
  test("v2 hierarchies come first, then v1's cpuacct; other controllers do not count CPU time", () => {
    const mounts = [
      "tmpfs /sys/fs/cgroup tmpfs rw,relatime,mode=755 0 0",
      "cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0",
      "cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,nosuid,cpu,cpuacct 0 0",
      "cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0",
    ].join("\n")
    expect(hierarchies(mounts)).toEqual([
      { kind: "v2", folder: "/sys/fs/cgroup/unified" },
      { kind: "v1", folder: "/sys/fs/cgroup/cpu,cpuacct" },
    ])
    expect(hierarchies("")).toEqual([])
  })

  test("reads a group's CPU seconds from v2's cpu.stat and v1's cpuacct.usage", () => {
    expect(parseCpuStat("usage_usec 1500000\nuser_usec 1000000\nsystem_usec 500000\n")).toBe(1.5)
    expect(() => parseCpuStat("user_usec 1\n")).toThrow(/usage_usec/)
    const folder = useTmpDir("suite-cpu-")
    const v2 = createGroup("run", `cgroup2 ${folder} cgroup2 rw 0 0`)
    expect(v2).toEqual({ kind: "v2", folder: path.join(folder, "run"), parent: folder })
    writeFileSync(path.join(folder, "run", "cpu.stat"), "usage_usec 2250000\n")
    expect(cpuSeconds(v2)).toBe(2.25)
    const v1 = { kind: "v1", folder: path.join(folder, "run"), parent: folder }
    writeFileSync(path.join(folder, "run", "cpuacct.usage"), "3000000000\n")
    expect(cpuSeconds(v1)).toBe(3)
    // A group is made where a hierarchy can hold one; none is made without one.
    expect(createGroup("run", `cgroup2 ${path.join(folder, "missing")} cgroup2 rw 0 0`)).toBeUndefined()
    removeGroup(v2)
  })
})
