import { describe, expect, test } from "vitest"
import nodePath from "node:path"
import { portablePath, shellWord, userShell } from "../src/_shell-quote.ts"
import { printedPath } from "../src/cli/printed-path.ts"

// Words of a pasted command in the three shells. cmd.exe is checked by its rules (none runs here):
// double quotes keep spaces and & | < > ( ) ^ from cmd, `%` is expanded even inside them, and the
// program splits its command line by the Microsoft C runtime's rules (a `\` before `"` doubled).
describe("one quoting function, three shells", () => {
  const path = "C:\\Users\\John Smith\\my tools"

  test("plain words stay as they are in every shell", () => {
    for (const shell of ["posix", "cmd", "powershell"] as const) {
      expect(shellWord("name=Ada", shell)).toBe("name=Ada")
      expect(shellWord("../my-app/.opencode", shell)).toBe("../my-app/.opencode")
    }
  })

  test("POSIX: single quotes, a quote written '\\''", () => {
    expect(shellWord(path, "posix")).toBe(`'C:\\Users\\John Smith\\my tools'`)
    expect(shellWord(`it's & 100% "done" ✓`, "posix")).toBe(`'it'\\''s & 100% "done" ✓'`)
  })

  test("cmd: double quotes for spaces, & and unicode; a trailing backslash doubled", () => {
    expect(shellWord(path, "cmd")).toBe(`"C:\\Users\\John Smith\\my tools"`)
    expect(shellWord("Tom & Jerry's ✓", "cmd")).toBe(`"Tom & Jerry's ✓"`)
    expect(shellWord("C:\\My Folder\\", "cmd")).toBe(`"C:\\My Folder\\\\"`)
  })

  test('cmd: a word with % or " is quoted for the program and escaped for cmd with ^', () => {
    // cmd removes each ^ and keeps what follows; the program then reads "100% \"done\"" as one word.
    expect(shellWord('100% "done"', "cmd")).toBe('^"100^%^ \\^"done\\^"^"')
    expect(shellWord('{"name":"Ada"}', "cmd")).toBe('^"{\\^"name\\^":\\^"Ada\\^"}^"')
    expect(shellWord("%PATH%", "cmd")).toBe('^"^%PATH^%^"')
  })

  test('PowerShell: single quotes, in which $ and " are plain; a quote doubled, typographic ones too', () => {
    expect(shellWord(path, "powershell")).toBe(`'C:\\Users\\John Smith\\my tools'`)
    expect(shellWord('$(echo three) & 100% "x"', "powershell")).toBe(`'$(echo three) & 100% "x"'`)
    expect(shellWord("it's ’ok’ ✓", "powershell")).toBe(`'it''s ’’ok’’ ✓'`)
    expect(shellWord("@splat", "powershell")).toBe(`'@splat'`)
  })

  test("relative paths are printed with forward slashes", () => {
    expect(portablePath("..\\my app\\.opencode")).toBe("../my app/.opencode")
  })

  // e2e --init's "Run it" line named a script in a subfolder `scripts\e2e.json` on Windows.
  test("a file a printed command names, from where it was typed: relative, forward slashes on Windows too", () => {
    expect(printedPath("C:\\proj", "C:\\proj\\scripts\\e2e.json", nodePath.win32)).toBe("scripts/e2e.json")
    expect(printedPath("C:\\proj\\sub", "C:\\proj\\e2e.json", nodePath.win32)).toBe("../e2e.json")
    expect(printedPath("/proj", "/proj/scripts/e2e.json", nodePath.posix)).toBe("scripts/e2e.json")
  })
})

describe("which shell the commands are printed for", () => {
  test("POSIX off Windows, whatever the environment says", () => {
    expect(userShell({ PSModulePath: "a;b;c" }, "linux")).toBe("posix")
    expect(userShell({}, "darwin")).toBe("posix")
  })

  test("on Windows: cmd by default, PowerShell by its modules path, POSIX in Git Bash or MSYS2", () => {
    const system =
      "C:\\Program Files\\WindowsPowerShell\\Modules;C:\\WINDOWS\\system32\\WindowsPowerShell\\v1.0\\Modules"
    expect(userShell({ PSModulePath: system }, "win32")).toBe("cmd")
    expect(
      userShell({ PSModulePath: `C:\\Users\\ada\\Documents\\WindowsPowerShell\\Modules;${system}` }, "win32"),
    ).toBe("powershell")
    expect(userShell({ PSModulePath: system, MSYSTEM: "MINGW64" }, "win32")).toBe("posix")
    expect(userShell({}, "win32")).toBe("cmd")
  })
})
