// Which of opencode's npm platform packages fit this machine, best first, and where the binary
// sits in each. opencode publishes opencode-{linux,darwin,windows}-{x64,arm64}, and for x64 a
// -baseline build (no AVX2) and on Linux -musl builds (Alpine):
//   linux   x64: opencode-linux-x64, -baseline, -musl, -baseline-musl     arm64: -arm64, -arm64-musl
//   darwin  x64: opencode-darwin-x64, -baseline                           arm64: opencode-darwin-arm64
//   windows x64: opencode-windows-x64, -baseline                          arm64: opencode-windows-arm64
// The binary is bin/opencode, bin/opencode.exe on Windows. The order is the one opencode's own
// launcher (opencode-ai's postinstall) tries: this machine's C library first, then AVX2 or baseline
// as the CPU allows; when AVX2 cannot be told (Windows: asking takes a PowerShell start) baseline
// comes first, as the launcher does when it cannot tell, since it runs on every x64 CPU.
import { closeSync, existsSync, openSync, readFileSync, readSync } from "node:fs"
import { join } from "node:path"
import { programOutputSync } from "../runtime/start-program.ts"

/** What the choice depends on; undefined when it is not known. */
export type Machine = {
  platform: NodeJS.Platform
  arch: string
  /** Linux only: the C library is musl (Alpine), not glibc. */
  musl?: boolean | undefined
  /** x64 only: the CPU has AVX2. */
  avx2?: boolean | undefined
}

/** The platform packages that can run on `machine` (by default this one), best first. */
export function opencodePackageNames(machine: Machine = thisMachine()): string[] {
  const platform = machine.platform === "win32" ? "windows" : machine.platform
  const base = `opencode-${platform}-${machine.arch}`
  const builds = machine.arch === "x64" ? (machine.avx2 === true ? ["", "-baseline"] : ["-baseline", ""]) : [""]
  const libraries = machine.platform === "linux" ? (machine.musl === true ? ["-musl", ""] : ["", "-musl"]) : [""]
  return libraries.flatMap((library) => builds.map((build) => `${base}${build}${library}`))
}

/** The opencode binary inside an installed platform package (or inside `opencode-ai`). */
export function opencodeBinaryIn(packageDirectory: string, platform: NodeJS.Platform = process.platform): string {
  return join(packageDirectory, "bin", platform === "win32" ? "opencode.exe" : "opencode")
}

/**
 * Whether a file is a program the system runs as is (ELF, Mach-O or PE), rather than a script or
 * the text `opencode-ai` leaves in place of its binary when its postinstall did not run.
 */
export function isNativeExecutable(file: string): boolean {
  const head = Buffer.alloc(4)
  let descriptor: number | undefined
  try {
    descriptor = openSync(file, "r")
    if (readSync(descriptor, head, 0, 4, 0) < 4) return false
  } catch {
    return false
  } finally {
    if (descriptor !== undefined) closeSync(descriptor)
  }
  const magic = head.readUInt32BE(0)
  return (
    magic === 0x7f454c46 || // ELF
    [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(magic) || // Mach-O, and universal
    head.readUInt16BE(0) === 0x4d5a // "MZ": PE
  )
}

/** This machine, detected once: musl on Linux from the files it leaves; AVX2 from /proc/cpuinfo (Linux) or sysctl (macOS). */
export function thisMachine(): Machine {
  detected ??= {
    platform: process.platform,
    arch: process.arch,
    musl: process.platform === "linux" ? isMusl() : undefined,
    avx2: process.arch === "x64" ? hasAvx2(process.platform) : undefined,
  }
  return detected
}

/** Linux: Alpine says so in /etc/alpine-release; elsewhere musl's `ldd` is a script naming it. */
export function isMusl(read: (file: string) => string | undefined = readText): boolean {
  if (read("/etc/alpine-release") !== undefined) return true
  return read("/usr/bin/ldd")?.includes("musl") === true
}

/** Whether an x64 CPU has AVX2; undefined where it is not asked (Windows) or cannot be read. */
export function hasAvx2(
  platform: NodeJS.Platform,
  read: (file: string) => string | undefined = readText,
  sysctl: (name: string) => string | undefined = readSysctl,
): boolean | undefined {
  if (platform === "linux") {
    const cpuinfo = read("/proc/cpuinfo")
    return cpuinfo === undefined ? undefined : /^flags\s*:.*\bavx2\b/m.test(cpuinfo)
  }
  if (platform === "darwin") {
    const answer = sysctl("hw.optional.avx2_0")
    return answer === undefined ? undefined : answer.trim() === "1"
  }
  return undefined
}

// --- internal ---

let detected: Machine | undefined

function readText(file: string): string | undefined {
  try {
    return existsSync(file) ? readFileSync(file, "latin1") : undefined
  } catch {
    return undefined
  }
}

function readSysctl(name: string): string | undefined {
  const result = programOutputSync("sysctl", ["-n", name], { timeout: 5_000 })
  return result.status === 0 ? result.stdout : undefined
}
