// `tool-tester dev`'s server: the inspector app on 127.0.0.1, a port of the user's or a free one,
// and the URL (with this start's token) to open.
import type { AddressInfo } from "node:net"
import { serve } from "@hono/node-server"
import { ToolTesterError } from "../errors.ts"
import { createInspectorApp } from "./app.ts"
import { readAssets } from "./assets.ts"
import { createToken } from "./security.ts"
import type { InspectorOptions } from "./session.ts"
import { InspectorSession } from "./session.ts"

export type StartedInspector = {
  /** The page, with the token: the only URL that works. */
  url: string
  port: number
  token: string
  session: InspectorSession
  /** Stops the server, the watcher and the project's engine. */
  close: () => Promise<void>
}

/** Loads the project, then listens on 127.0.0.1 (port 0: a free one). */
export async function startInspector(
  options: InspectorOptions & { port?: number; assetFolder?: string },
): Promise<StartedInspector> {
  const token = createToken()
  const session = new InspectorSession(options)
  let port = options.port ?? 0
  const app = createInspectorApp({ session, assets: readAssets(options.assetFolder), token, port: () => port })
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: "127.0.0.1", port }, () => resolve(started))
    started.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new ToolTesterError("USAGE", `port ${port} is in use: pass another --port, or leave it out for a free one`)
          : error.code === "EACCES"
            ? new ToolTesterError(
                "USAGE",
                `port ${port} is not open to your user (ports below 1024 need administrator rights): pass --port 1024 or above, or leave it out for a free one`,
              )
            : error,
      )
    })
  })
  port = (server.address() as AddressInfo).port
  try {
    await session.start()
  } catch (error) {
    server.close()
    throw error
  }
  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    port,
    token,
    session,
    close: async () => {
      await session.close()
      // Open event streams would keep the server from closing.
      ;(server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
