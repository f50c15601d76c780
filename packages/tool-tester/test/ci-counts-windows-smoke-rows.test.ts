// CI's last line counts the Windows smoke (scripts/windows-smoke, issue 33): each row that differs
// from Linux is a failure, and a smoke that did not finish is one; the smoke's comparison ignores
// only what may differ between the two sides (paths, line ends, timings, the engine's runtime).
import { spawnSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
// @ts-expect-error: a plain script of the repository, without types
import { normalise } from "../../../scripts/windows-smoke/normalise.mjs"
import { packageRoot, useTmpDir } from "./helpers.ts"

const summaryScript = path.join(packageRoot, "..", "..", "scripts", "ci-summary.mjs")
const normaliseText = normalise as (text: string, folders?: Record<string, string>) => string

function summary(files: { report: unknown; smoke?: unknown }): { status: number | null; lastLine: string } {
  const folder = useTmpDir("tool-tester-ci-summary-")
  writeFileSync(path.join(folder, "report.json"), JSON.stringify(files.report))
  if (files.smoke !== undefined) writeFileSync(path.join(folder, "smoke.json"), JSON.stringify(files.smoke))
  const result = spawnSync(process.execPath, [summaryScript, "report.json", "--smoke", "smoke.json"], {
    cwd: folder,
    encoding: "utf8",
    env: { ...process.env, CI: "" },
  })
  return { status: result.status, lastLine: result.stdout.trim().split("\n").at(-1) ?? "" }
}

const greenReport = { numPassedTests: 5, numFailedTests: 0, success: true, testResults: [] }

describe("CI's last line with the Windows smoke", () => {
  test("counts every smoke row, and fails on one that differs from Linux", () => {
    expect(summary({ report: greenReport, smoke: { passed: 18, failed: 0, differ: [] } })).toEqual({
      status: 0,
      lastLine: "23 passed, 0 failed",
    })
    expect(summary({ report: greenReport, smoke: { passed: 16, failed: 2, differ: ["preflight", "e2e"] } })).toEqual({
      status: 1,
      lastLine: "21 passed, 2 failed",
    })
  })

  test("fails when the smoke left no summary (it did not finish)", () => {
    expect(summary({ report: greenReport })).toEqual({ status: 1, lastLine: "5 passed, 1 failed" })
  })
})

describe("the smoke's comparison", () => {
  test("reads Windows' and Linux's output of one command the same", () => {
    const folders = { W: "/tmp/smoke-x" }
    const windows =
      '{"output":"Z:\\\\tmp\\\\smoke-x\\\\proj-win\\\\a.ts","durationMs":12.5,"engine":{"name":"node","version":"22.22.2"}}\r\n' +
      "opencode 1.18.32 e2e run with mock/mock-model (exit 0, 3 model requests, 190.6 s)\r\n" +
      "hello  completed  3.1 ms\r\n"
    const linux =
      '{"output":"/tmp/smoke-x/proj-lin/a.ts","durationMs":3,"engine":{"name":"node","version":"20.19.0"}}\n' +
      "opencode 1.18.34 e2e run with mock/mock-model (exit 0, 3 model requests, 85.1 s)\n" +
      "hello  completed  16 ms\n"
    expect(normaliseText(windows, folders)).toBe(normaliseText(linux, folders))
  })

  test("reads verify's report on each side the same: the opencode it ran, its version, the timings", () => {
    const report = (opencode: string, version: string, seconds: [number, number, number]) =>
      `tool-tester (models opencode 1.18.34) against opencode ${version} (${opencode})\n\n` +
      "  attachments   agree (48 checks)\n\n" +
      `10 probe runs in ${seconds[0]} s (4 at once); a run's median: opencode ${seconds[1]} s, tool-tester ${seconds[2]} s.\n\n` +
      `All agree: tool-tester's predictions hold for opencode ${version}.\n`
    const windows = report("Z:\\cache\\opencode-wine-1.18.32\\opencode.exe", "1.18.32", [60, 18, 2.8])
    const linux = report("/repo/node_modules/.pnpm/opencode-linux-x64@1.18.34/bin/opencode", "1.18.34", [21, 8.3, 0])
    expect(normaliseText(windows)).toBe(normaliseText(linux))
    // What opencode was found to do is still compared.
    expect(normaliseText(windows)).not.toBe(
      normaliseText(linux.replace("agree (48 checks)", "DIFFER (2 of 48 checks)")),
    )
  })

  test("reads the ids made anew on each run (an attachment's part, session and message, the call's) the same", () => {
    const ids = (part: string, session: string) =>
      `{"id":"prt_${part}","sessionID":"ses_${session}","messageID":"msg_245f4d38f003i96f2Bzc7Ixh4s"}`
    expect(normaliseText(ids("245f4d394005ufr8hMHZpculTf", "245f4d38f001jYdSdNPR4lwXhb"))).toBe(
      normaliseText(ids("245f51c2a004AbCdEfGhIjKlMn", "245f51c2a001ZyXwVuTsRqPoNm")),
    )
    expect(normaliseText('"tool_call_id":"call_245f5b225002"')).toBe(
      normaliseText('"tool_call_id":"call_245f60aa1003"'),
    )
    // Other text that happens to start so is left alone.
    expect(normaliseText("prt_short")).toBe("prt_short")
  })

  test("still tells apart what a user would see differ", () => {
    expect(normaliseText("Hello, Ada!\n")).not.toBe(normaliseText("Hello, Ada\n"))
    expect(normaliseText('{"status":"completed"}')).not.toBe(normaliseText('{"status":"error"}'))
    expect(normaliseText("0.1.0 (models opencode 1.18.34)")).not.toBe(normaliseText("0.1.0 (models opencode 1.18.32)"))
  })
})
