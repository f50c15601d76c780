// Opening the inspector in the user's browser without putting its token in a command line (which
// every local user can read, in `ps` or /proc): the opener is given a file instead, a page that
// sends the browser on to the inspector's URL, in a folder only this user can enter (0700, the
// file 0600), as Jupyter does. The file is removed when `dev` stops.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { startProgram } from "../runtime/start-program.ts"

export type OpenedPage = {
  /** The page handed to the opener (no token in its path). */
  file: string
  /** Removes the page and its folder. */
  remove: () => void
}

/** Writes the launch page and hands it to the system's opener (started with `env`: the CLI's without the tools' mark, since the browser it may start is not one of theirs); a machine without one (a server, a container) just has the printed URL. */
export function openInBrowser(url: string, env: Record<string, string | undefined>): OpenedPage {
  const folder = mkdtempSync(path.join(os.tmpdir(), "tool-tester-dev-"))
  const file = path.join(folder, "open-inspector.html")
  writeFileSync(file, launchPage(url), { mode: 0o600 })
  const target = pathToFileURL(file).href
  const [command, ...args] =
    os.platform() === "darwin"
      ? ["open", file]
      : os.platform() === "win32"
        ? ["cmd", "/c", "start", "", target]
        : ["xdg-open", file]
  try {
    const child = startProgram(command!, args, { stdio: "ignore", detached: true, windowsHide: true, env })
    child.on("error", () => undefined)
    child.unref()
  } catch {
    // Nothing to open it with: the URL is printed.
  }
  return { file, remove: () => rmSync(folder, { recursive: true, force: true }) }
}

// --- internal ---

function launchPage(url: string): string {
  const quoted = JSON.stringify(url).replace(/</g, "\\u003c")
  const attribute = url.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;")
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="0;url=${attribute}">
<title>tool-tester dev</title>
</head>
<body>
<p>Opening the inspector: <a href="${attribute}">continue</a>.</p>
<script>location.replace(${quoted})</script>
</body>
</html>
`
}
