import { readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, test } from "vitest"
import { checkerOptions } from "./_checker-options.ts"

const ourPlugin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
// The real package, installed under an alias as a dev dependency.
const realPlugin = path.join(ourPlugin, "node_modules", "real-opencode-plugin")

// The real package's entry points this one leaves out (README, "What is not included"): the TUI
// plugin API, which needs @opentui, and the experimental v2 API, which needs effect.
const omitted = ["./tui", "./v2/effect", "./v2/effect/integration", "./v2/effect/plugin", "./v2/promise"]

type Exports = Record<string, Record<string, string>>

function exportsOf(root: string): Exports {
  return JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).exports
}

const ours = exportsOf(ourPlugin)
const real = exportsOf(realPlugin)

/** Each name a module exports, with whether it is a value, a type or both, sorted. */
function exportedNames(checker: ts.TypeChecker, file: ts.SourceFile): string[] {
  const module = checker.getSymbolAtLocation(file)
  if (module === undefined) throw new Error(`${file.fileName} is not a module`)
  return checker
    .getExportsOfModule(module)
    .map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
      const kinds = [
        target.flags & ts.SymbolFlags.Value ? "value" : "",
        target.flags & ts.SymbolFlags.Type ? "type" : "",
      ]
      return `${symbol.name} (${kinds.filter(Boolean).join(" and ")})`
    })
    .sort()
}

describe("the API surface, against the real @opencode-ai/plugin@1.18.33", () => {
  test("has its entry points, less the documented omissions, with the same conditions", () => {
    // An entry point the real package lacks, such as "./package.json", resolves and type-checks
    // with ours and fails with the real one (ERR_PACKAGE_PATH_NOT_EXPORTED under Node, TS2307).
    expect(Object.keys(ours).sort()).toEqual(Object.keys(real).filter((entry) => !omitted.includes(entry)))
    for (const entry of Object.keys(ours)) {
      expect(Object.keys(ours[entry] ?? {}).sort(), entry).toEqual(Object.keys(real[entry] ?? {}).sort())
    }
  })

  test("each entry point exports the same names, as values and as types", () => {
    // Our declarations come from src (dist/x.d.ts is built from src/x.ts), so no build is needed.
    const ourFile = (entry: string) =>
      path.join(ourPlugin, (ours[entry]?.types ?? "").replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts"))
    const realFile = (entry: string) => path.join(realPlugin, real[entry]?.types ?? "")
    const entries = Object.keys(ours)
    const program = ts.createProgram([...entries.map(ourFile), ...entries.map(realFile)], {
      ...checkerOptions,
      skipLibCheck: true,
    })
    const checker = program.getTypeChecker()
    const names = (file: string) => {
      const source = program.getSourceFile(file)
      if (source === undefined) throw new Error(`${file} was not loaded`)
      return exportedNames(checker, source)
    }
    for (const entry of entries) {
      expect(names(ourFile(entry)), entry).toEqual(names(realFile(entry)))
    }
  })
})
