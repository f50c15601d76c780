// Skipping e2e tests where no opencode binary is installed (a contributor's laptop, a CI job that
// does not install it). `findOpencode()` only looks; it never downloads anything.
//
//   import { describe, it, expect } from "vitest"
//   import { findOpencode, runE2E } from "@opencode-ai/tool-tester/e2e"
//
//   describe.skipIf(!findOpencode())("my tools in the real opencode", () => {
//     it("greets through opencode", async () => {
//       const result = await runE2E({
//         directory: "fixtures/my-project",
//         script: { turns: [{ calls: [{ tool: "greet", args: { name: "Ada" } }] }] },
//       })
//       expect(result.calls[0]?.result).toBe("hello Ada")
//     }, 120_000)
//   })
//
// To run them, install the binary as a dev dependency: `npm i -D opencode-ai@1.18`, which
// brings the package for your platform, or that package itself (`opencode-linux-x64`,
// `opencode-darwin-arm64`, `opencode-windows-x64`...: the OPENCODE_NOT_FOUND error names yours).

import { type FindOpencodeOptions, findOpencode as find } from "../opencode/opencode-binary.ts"

/** The installed opencode binary (the project's platform package, tool-tester's, or PATH), or undefined. */
export function findOpencode(options: FindOpencodeOptions = {}): string | undefined {
  return find(options)
}
