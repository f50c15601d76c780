// Removes the previous build, so that no file of an earlier layout (a module since moved or
// deleted, a chunk with an old hash) is left in dist/ and packed. Run by `npm run build`, first.
import { rmSync } from "node:fs"

rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true })
