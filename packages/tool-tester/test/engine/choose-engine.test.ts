import { describe, expect, test } from "vitest"
import { chooseEngineNow, engineChoice, libraryNotice } from "../../src/engine-client/choose-engine.ts"
import { findBun } from "../../src/engine-client/find-bun.ts"

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

  test("the opencode binary installed for e2e is found when nothing is on PATH", () => {
    expect(findBun({ env: { PATH: "" } })).toMatchObject({ source: "opencode-package" })
  })
})
