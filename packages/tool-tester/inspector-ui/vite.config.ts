// The inspector's page, built into tool-tester's dist (dist/inspector-ui), where the server reads
// it. Relative URLs: the page lives under /<token>/, and every asset must carry the token too.
import path from "node:path"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vite"

const here = path.dirname(fileURLToPath(import.meta.url))

export default defineConfig({
  root: here,
  base: "./",
  logLevel: "warn",
  build: {
    outDir: path.join(here, "..", "dist", "inspector-ui"),
    emptyOutDir: true,
    target: "es2022",
    // One script and one stylesheet: the server serves only what this build wrote.
    modulePreload: false,
  },
})
