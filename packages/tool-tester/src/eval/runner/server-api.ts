// The few `opencode serve` routes the eval runner uses, each request naming the project
// (`?directory=`) and carrying the server's basic auth (docs/opencode-contract.md#server).

import type { RunningServer } from "../../opencode/opencode-server.ts"
import { serverError } from "../../opencode/opencode-server.ts"

export interface ServerApi {
  get<T>(route: string, signal?: AbortSignal): Promise<T>
  post<T>(route: string, body: unknown, signal?: AbortSignal): Promise<T>
  /** A streamed answer (server-sent events) as text chunks, until `signal` aborts it. */
  stream(route: string, signal: AbortSignal): Promise<AsyncIterable<string>>
}

/** A request the server answered with an error status: its status and its message in one line. */
class ServerAnswerError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export function serverApi(server: Pick<RunningServer, "url" | "authorization">, directory: string): ServerApi {
  const url = (route: string) =>
    `${server.url}${route}${route.includes("?") ? "&" : "?"}directory=${encodeURIComponent(directory)}`
  const request = async <T>(method: string, route: string, body?: unknown, signal?: AbortSignal): Promise<T> => {
    const answer = await fetch(url(route), {
      method,
      // A content type without a body makes some routes (GET /permission) read a body that is not there.
      headers: {
        authorization: server.authorization,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
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
    stream: async (route, signal) => {
      const answer = await fetch(url(route), { headers: { authorization: server.authorization }, signal })
      if (!answer.ok || answer.body === null) throw new ServerAnswerError(answer.status, `GET ${route}: no stream`)
      return answer.body.pipeThrough(new TextDecoderStream()) as unknown as AsyncIterable<string>
    },
  }
}
