import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { findOpencode } from "../../src/opencode/opencode-binary.ts"
import {
  hasAvx2,
  isMusl,
  isNativeExecutable,
  opencodeBinaryIn,
  opencodePackageNames,
} from "../../src/opencode/opencode-packages.ts"
import { bunPackageNames } from "../../src/engine-client/find-bun.ts"
import { useTmpDir, writeFiles } from "../helpers.ts"

describe("opencode's platform packages for a machine", () => {
  test("Linux x64 with glibc and AVX2 takes the plain build first, musl builds last", () => {
    expect(opencodePackageNames({ platform: "linux", arch: "x64", musl: false, avx2: true })).toEqual([
      "opencode-linux-x64",
      "opencode-linux-x64-baseline",
      "opencode-linux-x64-musl",
      "opencode-linux-x64-baseline-musl",
    ])
  })

  test("without AVX2 the baseline build comes first; on musl the musl builds do", () => {
    expect(opencodePackageNames({ platform: "linux", arch: "x64", musl: false, avx2: false })).toEqual([
      "opencode-linux-x64-baseline",
      "opencode-linux-x64",
      "opencode-linux-x64-baseline-musl",
      "opencode-linux-x64-musl",
    ])
    expect(opencodePackageNames({ platform: "linux", arch: "x64", musl: true, avx2: true })).toEqual([
      "opencode-linux-x64-musl",
      "opencode-linux-x64-baseline-musl",
      "opencode-linux-x64",
      "opencode-linux-x64-baseline",
    ])
    expect(opencodePackageNames({ platform: "linux", arch: "arm64", musl: true })).toEqual([
      "opencode-linux-arm64-musl",
      "opencode-linux-arm64",
    ])
  })

  test("macOS and Windows have no musl builds; arm64 has one build; unknown AVX2 takes baseline first", () => {
    expect(opencodePackageNames({ platform: "darwin", arch: "arm64" })).toEqual(["opencode-darwin-arm64"])
    expect(opencodePackageNames({ platform: "darwin", arch: "x64", avx2: true })).toEqual([
      "opencode-darwin-x64",
      "opencode-darwin-x64-baseline",
    ])
    expect(opencodePackageNames({ platform: "win32", arch: "x64" })).toEqual([
      "opencode-windows-x64-baseline",
      "opencode-windows-x64",
    ])
    expect(opencodePackageNames({ platform: "win32", arch: "arm64" })).toEqual(["opencode-windows-arm64"])
  })

  test("the binary is bin/opencode, bin/opencode.exe on Windows", () => {
    expect(opencodeBinaryIn(path.join("pkg"), "linux")).toBe(path.join("pkg", "bin", "opencode"))
    expect(opencodeBinaryIn(path.join("pkg"), "darwin")).toBe(path.join("pkg", "bin", "opencode"))
    expect(opencodeBinaryIn(path.join("pkg"), "win32")).toBe(path.join("pkg", "bin", "opencode.exe"))
  })

  test("Bun's packages say aarch64 for arm64 and put -musl before -baseline", () => {
    expect(bunPackageNames({ platform: "darwin", arch: "arm64" })).toEqual(["@oven/bun-darwin-aarch64"])
    expect(bunPackageNames({ platform: "linux", arch: "x64", musl: true, avx2: false })).toEqual([
      "@oven/bun-linux-x64-musl-baseline",
      "@oven/bun-linux-x64-musl",
      "@oven/bun-linux-x64-baseline",
      "@oven/bun-linux-x64",
    ])
    expect(bunPackageNames({ platform: "win32", arch: "x64", avx2: true })).toEqual([
      "@oven/bun-windows-x64",
      "@oven/bun-windows-x64-baseline",
    ])
  })
})

describe("telling the machine", () => {
  const files = (contents: Record<string, string>) => (file: string) => contents[file]

  test("musl: Alpine's release file, or an ldd that names musl; glibc's ldd is not musl", () => {
    expect(isMusl(files({ "/etc/alpine-release": "3.20.0\n" }))).toBe(true)
    expect(isMusl(files({ "/usr/bin/ldd": '#!/bin/sh\nexec /lib/ld-musl-x86_64.so.1 --list "$@"\n' }))).toBe(true)
    expect(isMusl(files({ "/usr/bin/ldd": "#!/bin/bash\n# This file is part of the GNU C Library.\n" }))).toBe(false)
    expect(isMusl(files({}))).toBe(false)
  })

  test("AVX2: the flags line of /proc/cpuinfo on Linux, sysctl on macOS, not asked on Windows", () => {
    const noSysctl = () => undefined
    expect(hasAvx2("linux", files({ "/proc/cpuinfo": "flags\t\t: fpu sse4_2 avx avx2 bmi2\n" }), noSysctl)).toBe(true)
    expect(hasAvx2("linux", files({ "/proc/cpuinfo": "flags\t\t: fpu sse4_2 avx\nbugs: avx2x\n" }), noSysctl)).toBe(
      false,
    )
    expect(hasAvx2("linux", files({}), noSysctl)).toBeUndefined()
    expect(hasAvx2("darwin", files({}), () => "1\n")).toBe(true)
    expect(hasAvx2("darwin", files({}), () => "0\n")).toBe(false)
    expect(hasAvx2("win32", files({}), () => "1")).toBeUndefined()
  })

  test("a native program is told from a script and from opencode-ai's stub text", () => {
    const folder = useTmpDir()
    writeFiles(folder, {
      elf: "\u007fELF\u0002\u0001",
      pe: "MZ\u0090\u0000",
      script: "#!/usr/bin/env node\n",
      stub: 'echo "Error: opencode-ai\'s postinstall script was not run." >&2\n',
      short: "MZ",
    })
    expect(isNativeExecutable(path.join(folder, "elf"))).toBe(true)
    expect(isNativeExecutable(path.join(folder, "pe"))).toBe(true)
    expect(isNativeExecutable(path.join(folder, "script"))).toBe(false)
    expect(isNativeExecutable(path.join(folder, "stub"))).toBe(false)
    expect(isNativeExecutable(path.join(folder, "missing"))).toBe(false)
    expect(isNativeExecutable(process.execPath)).toBe(true)
  })
})

describe("finding the binary in a project's node_modules", () => {
  const native = readFileSync(realpathSync(process.execPath)).subarray(0, 64)

  /** A project with these platform packages and opencode-ai (its binary chosen, or its stub text left), each binary a native header. */
  function project(packages: string[], wrapper: "chosen" | "stub" | "none"): string {
    const directory = useTmpDir()
    const binaries: string[] = []
    for (const name of packages) {
      writeFiles(directory, { [`node_modules/${name}/package.json`]: JSON.stringify({ name }) })
      binaries.push(opencodeBinaryIn(path.join(directory, "node_modules", name)))
    }
    if (wrapper !== "none") {
      writeFiles(directory, {
        "node_modules/opencode-ai/package.json": JSON.stringify({ name: "opencode-ai" }),
        "node_modules/opencode-ai/bin/opencode.exe": "echo stub\n",
      })
      if (wrapper === "chosen")
        binaries.push(path.join(directory, "node_modules", "opencode-ai", "bin", "opencode.exe"))
      else chmodSync(path.join(directory, "node_modules", "opencode-ai", "bin", "opencode.exe"), 0o755)
    }
    for (const binary of binaries) {
      mkdirSync(path.dirname(binary), { recursive: true })
      writeFileSync(binary, native)
      chmodSync(binary, 0o755)
    }
    return directory
  }

  test("opencode-ai's own binary, put in place by its postinstall, comes first", () => {
    const directory = project([opencodePackageNames()[0]!], "chosen")
    expect(findOpencode({ directory, path: false })).toBe(
      path.join(directory, "node_modules", "opencode-ai", "bin", "opencode.exe"),
    )
  })

  test("when its postinstall did not run, the best platform package installed is taken", () => {
    const names = opencodePackageNames()
    const directory = project([...names].reverse(), "stub")
    expect(findOpencode({ directory, path: false })).toBe(
      opencodeBinaryIn(path.join(directory, "node_modules", names[0]!)),
    )
    const second = project([names.at(-1)!], "none")
    expect(findOpencode({ directory: second, path: false })).toBe(
      opencodeBinaryIn(path.join(second, "node_modules", names.at(-1)!)),
    )
  })
})
