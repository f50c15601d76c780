import path from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

const ourPlugin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

/** How the tests type-check a tool file or a package's types: as a user's strict NodeNext project does. */
export const checkerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
  types: ["node"],
  typeRoots: [path.join(ourPlugin, "node_modules", "@types")],
}
