// The few `opencode serve` routes the eval runner uses, each request naming the project
// (`?directory=`) and carrying the server's basic auth (docs/opencode-contract.md#server).

import type { RunningServer } from "../../client/opencode-server.ts"
import { serverError } from "../../client/opencode-server.ts"

export interface ServerApi {
  get<T>(route: string, signal?: AbortSignal): Promise<T>
  post<T>(route: string, body: unknown, signal?: AbortSignal): Promise<T>
}

/** A request the server answered with an error status: its status and its message in one line. */
export class ServerAnswerError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export function serverApi(server: Pick<RunningServer, "url" | "authorization">, directory: string): ServerApi {
  const request = async <T>(method: string, route: string, body?: unknown, signal?: AbortSignal): Promise<T> => {
    const separator = route.includes("?") ? "&" : "?"
    const answer = await fetch(`${server.url}${route}${separator}directory=${encodeURIComponent(directory)}`, {
      method,
      headers: { authorization: server.authorization, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal === undefined ? {} : { signal }),
    })
    const text = await answer.text()
    if (!answer.ok) throw new ServerAnswerError(answer.status, `${method} ${route}: ${serverError(text)}`)
    return (text === "" ? undefined : JSON.parse(text)) as T
  }
  return {
    get: (route, signal) => request("GET", route, undefined, signal),
    post: (route, body, signal) => request("POST", route, body, signal),
  }
}
