// Bundles the CLI into one file, as create-vite ships its own: loading one module instead of fifteen
// saves about 25 ms of Node 20's start-up, which is most of what create-tool spends before writing.
// tsc has already emitted dist/ (the library and its types); this replaces dist/cli.js only.
// prompts stays a real dependency, imported on the first question; so does picomatch, required on
// the first workspace glob matched (_glob-match.ts).
import { build } from "esbuild"

await build({
  entryPoints: [new URL("../src/cli.ts", import.meta.url).pathname],
  outfile: new URL("../dist/cli.js", import.meta.url).pathname,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  external: ["prompts", "picomatch"],
  allowOverwrite: true,
  logLevel: "warning",
})
