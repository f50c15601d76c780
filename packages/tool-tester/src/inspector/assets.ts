// The page's files: read once from the built UI folder (dist/inspector-ui) when the server starts.
// Only these are ever served: a request for any other path is a 404, whatever it names.
import { readdirSync, readFileSync } from "node:fs"
import { statOf } from "../_file-stats.ts"
import path from "node:path"
import { fileURLToPath } from "node:url"

export type Asset = { body: Uint8Array; type: string }

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
}

/** Where `npm run build` puts the page: dist/inspector-ui, beside dist/inspector (and dist/cli, whose bundle imports this). */
function defaultAssetFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url))
  return path.resolve(here, "..", "inspector-ui")
}

/** Every file of the built page by its path from the folder (`index.html`, `assets/index-abc.js`). */
export function readAssets(folder: string = defaultAssetFolder()): Map<string, Asset> {
  const assets = new Map<string, Asset>()
  const walk = (directory: string) => {
    for (const name of readdirSync(directory)) {
      const file = path.join(directory, name)
      if (statOf(file).isDirectory()) walk(file)
      else {
        const type = TYPES[path.extname(name)]
        if (type) assets.set(path.relative(folder, file).split(path.sep).join("/"), { body: readFileSync(file), type })
      }
    }
  }
  try {
    walk(folder)
  } catch {
    // No built page (a source checkout before `npm run build`): the API still answers.
  }
  return assets
}
