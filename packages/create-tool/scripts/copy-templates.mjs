// npm pack / publish: ship the repository's templates/ folder inside the package (prepack), and
// remove the copy afterwards (postpack, with --remove) so the repository keeps one source.
import { cpSync, rmSync } from "node:fs"
import { fileURLToPath } from "node:url"

const source = fileURLToPath(new URL("../../../templates/", import.meta.url))
const target = fileURLToPath(new URL("../templates/", import.meta.url))

rmSync(target, { recursive: true, force: true })
if (!process.argv.includes("--remove")) cpSync(source, target, { recursive: true })
