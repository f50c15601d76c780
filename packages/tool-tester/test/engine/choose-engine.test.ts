import path from "node:path"
import { describe, expect, test } from "vitest"
import { chooseEngineNow, engineChoice, libraryNotice } from "../../src/engine-client/choose-engine.ts"
import { findBun } from "../../src/engine-client/find-bun.ts"
import { programOnPath } from "../support/program-on-path.ts"

const found = { binary: "/opt/opencode/bin/opencode", source: "path" as const }

describe("choosing the engine", () => {
  test("the option wins over TOOL_TESTER_ENGINE, which wins over auto", () => {
    expect(engineChoice({ engine: "node", env: { TOOL_TESTER_ENGINE: "bun" } })).toBe("node")
    expect(engineChoice({ env: { TOOL_TESTER_ENGINE: "bun" } })).toBe("bun")
    expect(engineChoice({ env: {} })).toBe("auto")
    expect(engineChoice({ env: { TOOL_TESTER_ENGINE: "" } })).toBe("auto")
  })

  test("an unknown engine is a usage error naming where it came from", () => {
    expect(() => engineChoice({ engine: "deno", env: {} })).toThrow(/--engine is "deno": use auto, bun or node/)
    expect(() => engineChoice({ env: { TOOL_TESTER_ENGINE: "Bun" } })).toThrow(/TOOL_TESTER_ENGINE is "Bun"/)
  })

  test("the error's data names the option, or the variable, the unknown engine came from", () => {
    expect(() => engineChoice({ engine: "deno", env: {} })).toThrow(
      expect.objectContaining({ code: "USAGE", data: { option: "engine", engine: "deno" } }),
    )
    expect(() => engineChoice({ env: { TOOL_TESTER_ENGINE: "Bun" } })).toThrow(
      expect.objectContaining({ code: "USAGE", data: { variable: "TOOL_TESTER_ENGINE", engine: "Bun" } }),
    )
  })

  test("auto takes a Bun when one is found, else node with a notice that says what to do", () => {
    expect(chooseEngineNow({ env: {} }, () => found)).toEqual({ selection: { name: "bun", location: found } })
    const fallback = chooseEngineNow({ env: {} }, () => undefined)
    expect(fallback?.selection).toEqual({ name: "node" })
    expect(fallback?.notice).toMatch(/no opencode or Bun found.*install opencode, or pass --engine bun/)
    // From loadTools() in a test, the notice names its option: vitest has no --engine flag.
    const library = libraryNotice(fallback!.notice!)
    expect(library).toMatch(/install opencode, or pass engine: "bun" to loadTools\(\) to download Bun/)
    expect(library).not.toContain("--engine")
  })

  // A Bun user runs tool-tester with a bun on PATH and no opencode: auto still picks node (that bun
  // need not be opencode's), and the notice names it and the flag that uses it, not "no Bun found".
  test("with a bun on PATH, the fallback notice names it and --engine-binary bun", () => {
    const { file, env } = programOnPath("bun")
    const fallback = chooseEngineNow({ env }, () => undefined)
    expect(fallback?.selection).toEqual({ name: "node" })
    expect(fallback?.notice).toBe(
      `tool-tester: no opencode found, so tools run on Node, not in the Bun opencode runs them in; the bun on PATH (${file}) is used only when asked, since it may not be the Bun opencode embeds: pass --engine-binary bun to run them in it, or install opencode`,
    )
    expect(libraryNotice(fallback!.notice!)).toContain('pass engineBinary: "bun" to loadTools() to run them in it')
    // The flag the notice names finds that bun.
    expect(findBun({ engineBinary: "bun", env })).toMatchObject({ binary: file, source: "option" })
  })

  test("bun by name with none found asks for an install; node never looks", () => {
    expect(chooseEngineNow({ engine: "bun", env: {} }, () => undefined)).toBeUndefined()
    expect(
      chooseEngineNow({ engine: "node", env: {} }, () => {
        throw new Error("looked")
      }),
    ).toEqual({ selection: { name: "node" } })
  })

  test("an explicit binary that is not executable is ENGINE_NOT_FOUND, from the option or the environment", () => {
    expect(() => findBun({ engineBinary: "/nope/bun", env: {} })).toThrow(/--engine-binary names \/nope\/bun/)
    expect(() => findBun({ env: { TOOL_TESTER_ENGINE_BINARY: "/nope/bun" } })).toThrow(/TOOL_TESTER_ENGINE_BINARY/)
  })

  test("an explicit command name is looked up on PATH, as a shell does; a path stays a path", () => {
    const { file, env } = programOnPath("my-bun")
    expect(findBun({ engineBinary: "my-bun", env })).toEqual({ binary: file, source: "option", foundAs: file })
    expect(findBun({ env: { ...env, TOOL_TESTER_ENGINE_BINARY: "my-bun" } })).toEqual({
      binary: file,
      source: "env",
      foundAs: file,
    })
    expect(() => findBun({ engineBinary: "no-such-bun", env })).toThrow(
      "--engine-binary names no-such-bun, but no program named no-such-bun is on PATH, where a name without a folder is looked up: give the name of an opencode or bun on PATH, or the path of one",
    )
    expect(() => findBun({ env: { ...env, TOOL_TESTER_ENGINE_BINARY: "no-such-bun" } })).toThrow(
      /^TOOL_TESTER_ENGINE_BINARY names no-such-bun, but no program named no-such-bun is on PATH/,
    )
    // With a folder in it, a path from the working folder, never looked up on PATH.
    expect(() => findBun({ engineBinary: `.${path.sep}my-bun`, env })).toThrow(
      `--engine-binary names ${path.resolve("my-bun")}, which is not an executable file`,
    )
  })

  test("a relative path is read from the folder the command was typed in, not this process's working folder", async () => {
    const { file, env } = programOnPath("my-bun")
    const typedIn = path.dirname(file)
    const relative = `.${path.sep}${path.basename(file)}`
    expect(findBun({ engineBinary: relative, env, cwd: typedIn })).toEqual({
      binary: file,
      source: "option",
      foundAs: file,
    })
    // The CLI chooses the engine before it parses the flags: from CliIO's cwd too (main.ts's, the tests').
    const { startEngineEarly } = await import("../../src/cli/engine-option.ts")
    const early = await startEngineEarly(["run", "greet", "--engine-binary", path.join("bin", "bun")], env, typedIn)
    expect(early.engine).toBeUndefined()
    expect(early.choice?.error).toMatchObject({
      code: "ENGINE_NOT_FOUND",
      message: expect.stringContaining(`names ${path.join(typedIn, "bin", "bun")}, which is not an executable file`),
    })
  })

  test("the opencode binary installed for e2e is found when nothing is on PATH", () => {
    expect(findBun({ env: { PATH: "" } })).toMatchObject({ source: "opencode-package" })
  })
})
