// The inspector runs the project's tools on request, so only the page it served may talk to it:
// it listens on 127.0.0.1 only, every path starts with a random per-start token (the page, its
// assets, the API and the event stream), and the Host and Origin headers must name this server,
// so a web page elsewhere cannot reach it, not even through DNS rebinding (a name of its own that
// resolves to 127.0.0.1 still sends its own Host).
import { randomBytes, timingSafeEqual } from "node:crypto"
import type { MiddlewareHandler } from "hono"

/** A fresh token for one start of the server: 128 random bits, URL-safe. */
export function createToken(): string {
  return randomBytes(16).toString("base64url")
}

/** The hosts a request may name: this port on the loopback address, by number or as localhost. */
function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`]
}

/**
 * Refuses (403, plain text) a request whose Host is not this server, whose Origin (when sent) is
 * another site, or whose path does not start with `/<token>/`. Browsers always send Origin on a
 * POST, so a page elsewhere cannot post a run either.
 */
export function guard(options: { token: string; port: () => number }): MiddlewareHandler {
  return async (context, next) => {
    const hosts = allowedHosts(options.port())
    const host = context.req.header("host")
    if (host === undefined || !hosts.includes(host.toLowerCase()))
      return context.text("refused: this inspector answers only to 127.0.0.1 and localhost", 403)
    const origin = context.req.header("origin")
    if (origin !== undefined && !hosts.some((allowed) => origin.toLowerCase() === `http://${allowed}`))
      return context.text("refused: requests from other sites are not allowed", 403)
    // GET and HEAD (which Hono answers as a GET without its body) change nothing.
    if (context.req.method !== "GET" && context.req.method !== "HEAD" && origin === undefined)
      return context.text("refused: a request that changes something must come from the inspector's page", 403)
    const [, given] = new URL(context.req.url).pathname.split("/")
    if (given === undefined || !sameToken(given, options.token))
      return context.text("refused: open the URL tool-tester dev printed (it carries this start's token)", 403)
    await next()
  }
}

// --- internal ---

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}
