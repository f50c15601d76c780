// The runner's endpoint on 127.0.0.1: the wrappers of the project's tools ask it how to answer a
// call (`POST /<token>/call`), the guard plugin reports every call before it runs
// (`POST /<token>/before`). The token is random per eval, so only the opencode server started
// for this eval (which has the URL in its environment) can reach the answers.

import { randomBytes } from "node:crypto"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import type {
  DefinitionAnswer,
  GuardedCall,
  GuardedCallAnswer,
  WrappedCall,
  WrappedCallAnswer,
} from "./module-sources.ts"

export interface CallEndpoint {
  /** `http://127.0.0.1:<port>/<token>`, for the server's environment. */
  readonly url: string
  close(): Promise<void>
}

export interface CallHandlers {
  onCall(call: WrappedCall): WrappedCallAnswer
  onBefore(call: GuardedCall): GuardedCallAnswer
  /** What the running variant changes of a tool's definition (`POST /<token>/definition`). */
  onDefinition?(request: { tool: string }): DefinitionAnswer
}

export async function startCallEndpoint(handlers: CallHandlers): Promise<CallEndpoint> {
  const token = randomBytes(16).toString("hex")
  const server = createServer((request, response) => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" })
      response.end(JSON.stringify(body))
    }
    const route = request.url ?? ""
    const routes = [`/${token}/call`, `/${token}/before`, `/${token}/definition`]
    if (request.method !== "POST" || !routes.includes(route)) {
      answer(404, { error: "not found" })
      return
    }
    readJson(request)
      .then((body) => {
        const call = body as WrappedCall
        if (typeof call?.tool !== "string") return answer(400, { error: "a call needs a tool" })
        if (route.endsWith("/definition")) return answer(200, handlers.onDefinition?.({ tool: call.tool }) ?? {})
        answer(200, route.endsWith("/call") ? handlers.onCall(call) : handlers.onBefore(call))
      })
      .catch((error: unknown) => answer(500, { error: String(error) }))
  })
  // No idle timeout: each call is a POST from the engine's fetch, which keeps the connection
  // pooled longer than Node's 5 s and does not retry a POST on one closed under it (mock-model.ts).
  server.keepAliveTimeout = 0
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/${token}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

// --- internal ---

function readJson(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")))
      } catch (error) {
        reject(error)
      }
    })
    request.on("error", reject)
  })
}
