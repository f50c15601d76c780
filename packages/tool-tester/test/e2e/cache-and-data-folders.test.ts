import path from "node:path"
import { describe, expect, test } from "vitest"
import { globalConfigDirectory } from "../../src/discovery/config-dirs.ts"
import { toolTesterCacheDirectory } from "../../src/opencode/opencode-binary.ts"
import { opencodeDataDirectory } from "../../src/pipeline/data-directory.ts"

describe("tool-tester's cache folder follows each platform", () => {
  test("Linux: $XDG_CACHE_HOME, else ~/.cache; an empty variable counts as unset", () => {
    expect(toolTesterCacheDirectory({ XDG_CACHE_HOME: "/x/cache" }, "linux", "/home/ada")).toBe(
      "/x/cache/opencode-tool-tester",
    )
    expect(toolTesterCacheDirectory({}, "linux", "/home/ada")).toBe("/home/ada/.cache/opencode-tool-tester")
    expect(toolTesterCacheDirectory({ XDG_CACHE_HOME: "" }, "linux", "/home/ada")).toBe(
      "/home/ada/.cache/opencode-tool-tester",
    )
  })

  test("macOS: ~/Library/Caches, whatever XDG_CACHE_HOME says", () => {
    expect(toolTesterCacheDirectory({ XDG_CACHE_HOME: "/x/cache" }, "darwin", "/Users/ada")).toBe(
      "/Users/ada/Library/Caches/opencode-tool-tester",
    )
  })

  test("Windows: %LOCALAPPDATA%, else AppData\\Local in the home folder; empty counts as unset", () => {
    expect(toolTesterCacheDirectory({ LOCALAPPDATA: "D:\\Local" }, "win32", "C:\\Users\\ada")).toBe(
      "D:\\Local\\opencode-tool-tester",
    )
    expect(toolTesterCacheDirectory({ LOCALAPPDATA: "" }, "win32", "C:\\Users\\ada")).toBe(
      "C:\\Users\\ada\\AppData\\Local\\opencode-tool-tester",
    )
  })
})

describe("opencode's own folders follow xdg-basedir on every platform, empty meaning unset", () => {
  const home = path.join(path.sep, "home", "ada")

  test("the global config folder", () => {
    expect(globalConfigDirectory({ XDG_CONFIG_HOME: path.join(path.sep, "x") }, home)).toBe(
      path.join(path.sep, "x", "opencode"),
    )
    expect(globalConfigDirectory({ XDG_CONFIG_HOME: "" }, home)).toBe(path.join(home, ".config", "opencode"))
    expect(globalConfigDirectory({}, home)).toBe(path.join(home, ".config", "opencode"))
  })

  test("the data folder", () => {
    expect(opencodeDataDirectory({ XDG_DATA_HOME: "" }, home)).toBe(path.join(home, ".local", "share", "opencode"))
    expect(opencodeDataDirectory({ XDG_DATA_HOME: path.join(path.sep, "d") }, home)).toBe(
      path.join(path.sep, "d", "opencode"),
    )
  })
})
