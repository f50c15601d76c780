import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { findProgram, programCommand } from "../../src/runtime/find-program.ts"
import { programOutput } from "../../src/runtime/program-output.ts"
import { useTmpDir } from "../helpers.ts"

// npm's cmd-shim (what `npm i -g pnpm` writes on Windows), with its Windows line ends.
const cmdShim = (target: string) =>
  [
    "@ECHO off",
    "GOTO start",
    ":find_dp0",
    "SET dp0=%~dp0",
    "EXIT /b",
    ":start",
    "SETLOCAL",
    "CALL :find_dp0",
    'IF EXIST "%dp0%\\node.exe" (',
    '  SET "_prog=%dp0%\\node.exe"',
    ") ELSE (",
    '  SET "_prog=node"',
    "  SET PATHEXT=%PATHEXT:;.JS;=;%",
    ")",
    `endLocal & goto #_undefined_# 2>NUL || title %COMSPEC% & "%_prog%"  "%dp0%\\${target}" %*`,
    "",
  ].join("\r\n")

/** A folder with npm.cmd and npm's extensionless POSIX `npm` script beside it, as npm installs itself globally. */
function npmFolder(): string {
  const folder = path.join(useTmpDir("tool-tester-program-"), "npm prefix")
  mkdirSync(folder, { recursive: true })
  writeFileSync(path.join(folder, "npm.cmd"), cmdShim("node_modules\\npm\\bin\\npm-cli.js"))
  writeFileSync(path.join(folder, "npm"), '#!/bin/sh\nexec node "$basedir/node_modules/npm/bin/npm-cli.js" "$@"\n')
  chmodSync(path.join(folder, "npm"), 0o755)
  return folder
}

/** `which` as it is on Windows: it and isexe read the platform when they are loaded, so they are loaded again. */
function asOnWindows<Result>(run: () => Result): Result {
  const require = createRequire(new URL("../../src/runtime/find-program.ts", import.meta.url))
  const forget = () => {
    for (const key of Object.keys(require.cache)) if (/[\\/](which|isexe)[\\/]/.test(key)) delete require.cache[key]
  }
  const platform = Object.getOwnPropertyDescriptor(process, "platform")!
  forget()
  Object.defineProperty(process, "platform", { ...platform, value: "win32" })
  process.env["_ISEXE_TEST_PLATFORM_"] = "win32"
  try {
    return run()
  } finally {
    Object.defineProperty(process, "platform", platform)
    delete process.env["_ISEXE_TEST_PLATFORM_"]
    forget()
  }
}

describe("finding a program as the user's shell does", () => {
  test("on Windows npm is npm.cmd (PATHEXT), never npm's extensionless POSIX script beside it", () => {
    const folder = npmFolder()
    // One folder and one extension: the simulated Windows lookup splits them with this OS's delimiter.
    const found = asOnWindows(() => findProgram("npm", { Path: folder, PATHEXT: ".CMD" }))
    expect(found).toBe(path.join(folder, "npm.cmd"))
  })

  test("on this OS, npm is the program its shell would run", () => {
    const folder = npmFolder()
    const found = findProgram("npm", { PATH: folder, PATHEXT: ".COM;.EXE;.BAT;.CMD" })
    expect(found).toBe(path.join(folder, process.platform === "win32" ? "npm.cmd" : "npm"))
  })

  test("a program on no folder of PATH is not found", () => {
    expect(findProgram("npm", { PATH: useTmpDir("tool-tester-program-") })).toBeUndefined()
  })

  test.skipIf(process.platform === "win32")("elsewhere, PATH is walked as `which` walks it", () => {
    const root = useTmpDir("tool-tester-program-")
    const folder = (name: string) => {
      const made = path.join(root, name)
      mkdirSync(made, { recursive: true })
      return made
    }
    const program = (file: string, mode: number) => {
      writeFileSync(file, "#!/bin/sh\n")
      chmodSync(file, mode)
    }
    // Skipped: a folder named `tool`, a file no one may run, a missing folder, a file as a folder.
    mkdirSync(path.join(folder("a"), "tool"))
    program(path.join(folder("b"), "tool"), 0o644)
    program(path.join(folder("c"), "tool"), 0o755)
    program(path.join(folder("group only"), "tool"), 0o614)
    program(path.join(folder("others only"), "tool"), 0o601)
    program(path.join(root, "plain"), 0o644)
    const which = createRequire(new URL("../../src/runtime/find-program.ts", import.meta.url))(
      "which",
    ) as typeof import("which")
    const paths = [
      ["a", "b", "missing", "plain", "c"].map((name) => path.join(root, name)).join(path.delimiter),
      `"${path.join(root, "c")}"`,
      path.join(root, "group only"),
      path.join(root, "others only"),
      ["", path.join(root, "b")].join(path.delimiter),
      "",
    ]
    const cwd = process.cwd()
    process.chdir(folder("c"))
    try {
      for (const searchPath of paths)
        for (const name of ["tool", "./tool", "../c/tool", path.join(root, "c", "tool"), path.join(root, "b", "tool")])
          expect(findProgram(name, { PATH: searchPath }), `${name} on ${searchPath}`).toBe(
            which.sync(name, { path: searchPath, nothrow: true }) ?? undefined,
          )
    } finally {
      process.chdir(cwd)
    }
    expect(findProgram("tool", { PATH: paths[0] })).toBe(path.join(root, "c", "tool"))
  })
})

describe("what is started for a Windows .cmd shim", () => {
  test("npm's cmd-shim of a Node script starts Node with the script, not cmd.exe", () => {
    const folder = npmFolder()
    const script = path.join(folder, "node_modules", "pnpm", "bin", "pnpm.cjs")
    mkdirSync(path.dirname(script), { recursive: true })
    writeFileSync(script, "")
    writeFileSync(path.join(folder, "pnpm.cmd"), cmdShim("node_modules\\pnpm\\bin\\pnpm.cjs"))
    expect(programCommand(path.join(folder, "pnpm.cmd"), { PATH: "" })).toEqual([process.execPath, script])
  })

  test("the npm.cmd of Node's installer, beside node_modules/npm, starts npm-cli.js", () => {
    const folder = useTmpDir("tool-tester-program-")
    const cli = path.join(folder, "node_modules", "npm", "bin", "npm-cli.js")
    mkdirSync(path.dirname(cli), { recursive: true })
    writeFileSync(cli, "")
    writeFileSync(path.join(folder, "npm.cmd"), '@ECHO OFF\r\nSETLOCAL\r\n"%NODE_EXE%" "%NPM_CLI_JS%" %*\r\n')
    expect(programCommand(path.join(folder, "npm.cmd"), { PATH: "" })).toEqual([process.execPath, cli])
  })

  test("a shim of an executable starts the executable", () => {
    const folder = useTmpDir("tool-tester-program-")
    const binary = path.join(folder, "node_modules", "opencode-windows-x64", "bin", "opencode.exe")
    mkdirSync(path.dirname(binary), { recursive: true })
    writeFileSync(binary, "MZ\x90\x00")
    writeFileSync(
      path.join(folder, "opencode.cmd"),
      '@ECHO off\r\n"%~dp0\\node_modules\\opencode-windows-x64\\bin\\opencode.exe"   %*\r\n',
    )
    expect(programCommand(path.join(folder, "opencode.cmd"))).toEqual([binary])
  })

  test("a shim that names no file it can be sure of stays a shim (cross-spawn runs it through cmd.exe, quoted)", () => {
    const folder = useTmpDir("tool-tester-program-")
    writeFileSync(path.join(folder, "opencode.cmd"), '@"C:\\Program Files\\opencode\\opencode.exe" %*\r\n')
    expect(programCommand(path.join(folder, "opencode.cmd"))).toEqual([path.join(folder, "opencode.cmd")])
    // A shim whose target is missing, too.
    writeFileSync(path.join(folder, "gone.cmd"), cmdShim("node_modules\\gone\\cli.js"))
    expect(programCommand(path.join(folder, "gone.cmd"))).toEqual([path.join(folder, "gone.cmd")])
  })
})

describe("starting a program", () => {
  test("each argument arrives as one, through a shim in a folder with a space", { timeout: 60_000 }, async () => {
    const folder = path.join(useTmpDir("tool-tester-program-"), "John Smith")
    const script = path.join(folder, "node_modules", "echo-args", "cli.js")
    mkdirSync(path.dirname(script), { recursive: true })
    writeFileSync(script, "process.stdout.write(JSON.stringify(process.argv.slice(2)))\n")
    writeFileSync(path.join(folder, "echo-args.cmd"), cmdShim("node_modules\\echo-args\\cli.js"))
    const args = ["C:\\Users\\John Smith\\cache", "a & b", "100%", 'say "hi"', "it's", "Ünïcödé ✓", ""]
    const output = await programOutput(path.join(folder, "echo-args.cmd"), args, { env: { PATH: "" } })
    expect(output.error).toBeNull()
    expect(JSON.parse(output.stdout)).toEqual(args)
  })

  test("a program that cannot start resolves with why, and never throws", { timeout: 60_000 }, async () => {
    const output = await programOutput("tool-tester-no-such-program", ["--version"], {
      env: { PATH: useTmpDir("tool-tester-program-") },
    })
    expect(output.exitCode).toBeNull()
    expect(output.error?.message).toMatch(/ENOENT/)
  })

  test("it ends with the program, though a process the program left running holds its output open", {
    timeout: 120_000,
  }, async () => {
    const folder = useTmpDir("tool-tester-program-")
    const pidFile = path.join(folder, "grandchild.pid")
    // Prints a version, as `opencode --version` does, after starting a process that keeps stdout and never ends.
    const program = `
      const { spawn } = require("node:child_process")
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { detached: true, stdio: ["ignore", "inherit", "inherit"] })
      require("node:fs").writeFileSync(${JSON.stringify(pidFile)}, String(child.pid))
      child.unref()
      console.log("1.2.3")
    `
    try {
      const output = await programOutput(process.execPath, ["-e", program], { timeout: 100_000 })
      expect(output.error).toBeNull()
      expect(output.exitCode).toBe(0)
      expect(output.stdout.trim()).toBe("1.2.3")
    } finally {
      process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL")
    }
  })

  test("past its timeout a program is killed, even one that ignores SIGTERM, and the result says so", {
    timeout: 120_000,
  }, async () => {
    const program = 'process.on("SIGTERM", () => {}); console.log("started"); setInterval(() => {}, 1000)'
    const output = await programOutput(process.execPath, ["-e", program], { timeout: 3_000 })
    expect(output.exitCode).toBeNull()
    expect(output.error?.message).toBe(`${process.execPath} did not end within 3000 ms and was stopped`)
  })
})
