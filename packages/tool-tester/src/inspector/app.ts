// The inspector's HTTP surface, as a Hono app: the page and its assets, the API the page calls,
// and the event stream that carries every load and call to it. All behind the guard.
import { Hono } from "hono"
import { bodyLimit } from "hono/body-limit"
import { streamSSE } from "hono/streaming"
import { MODEL_MODALITIES } from "../pipeline/model-messages.ts"
import { modelSelection } from "../pipeline/model-selection.ts"
import type { Asset } from "./assets.ts"
import { guard } from "./security.ts"
import type { CallModel, CallRequest, InspectorEvent, InspectorSession } from "./session.ts"

export type InspectorAppOptions = {
  session: InspectorSession
  assets: Map<string, Asset>
  token: string
  /** The port the server listens on (known once it listens). */
  port: () => number
}

/** The largest request body the API reads: a call's arguments as a model would send them, with room to spare. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024

/** Every path is `/<token>/...`: the page at `/<token>/`, the API under `/<token>/api/`. */
export function createInspectorApp(options: InspectorAppOptions): Hono {
  const { session, assets, token } = options
  const app = new Hono()
  app.use("*", guard({ token, port: options.port }))
  app.use("*", async (context, next) => {
    await next()
    context.header("Cache-Control", "no-store")
    context.header("X-Content-Type-Options", "nosniff")
    context.header("Referrer-Policy", "no-referrer")
  })
  const api = new Hono()
  // Read no further than the limit (a body that says its length is refused before it is read).
  api.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (context) =>
        context.json(
          {
            error: {
              code: "USAGE",
              message: `the request body is over ${MAX_BODY_BYTES / 1024 / 1024} MiB, the most the inspector reads: send smaller arguments`,
            },
          },
          413,
        ),
    }),
  )

  api.get("/project", (context) => context.json(session.view() ?? null))
  api.get("/history", (context) => context.json(session.history()))
  api.post("/call", async (context) => {
    const body = await context.req.json().then(
      (value: unknown) => ({ value }),
      (error: unknown) => ({ error }),
    )
    if ("error" in body) {
      const reason = body.error instanceof Error ? body.error.message : String(body.error)
      return context.json(
        { error: { code: "USAGE", message: `the request body is not JSON (${reason}): ${CALL_SHAPE}` } },
        400,
      )
    }
    const request = callRequest(body.value)
    const page = pageOf(body.value)
    if (!request || page === null)
      return context.json({ error: { code: "USAGE", message: `not a call: ${CALL_SHAPE}` } }, 400)
    return context.json(await session.call(request, "run", page))
  })
  // The body is optional: {"page": ID} names the page that asks, as for a call.
  api.post("/history/:id/replay", async (context) => {
    const text = await context.req.text()
    let body: unknown = {}
    try {
      if (text.trim() !== "") body = JSON.parse(text)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      return context.json(
        { error: { code: "USAGE", message: `the request body is not JSON (${reason}): ${PAGE_SHAPE}` } },
        400,
      )
    }
    const page = pageOf(body)
    if (page === null) return context.json({ error: { code: "USAGE", message: `not a replay: ${PAGE_SHAPE}` } }, 400)
    const replayed = session.replay(historyId(context.req.param("id")), page)
    if (!replayed) return context.json({ error: { code: "USAGE", message: "no such call in the history" } }, 404)
    return context.json(await replayed)
  })
  // Cancels a running call: its abort signal fires, and its engine is ended when the tool does not
  // stop; answers with the call's entry once it ended.
  api.post("/history/:id/cancel", async (context) => {
    const id = historyId(context.req.param("id"))
    const cancelled = session.cancel(id)
    if (cancelled) return context.json(await cancelled)
    if (!session.entry(id))
      return context.json({ error: { code: "USAGE", message: "no such call in the history" } }, 404)
    return context.json({ error: { code: "USAGE", message: `call ${id} is not running: it has ended` } }, 409)
  })
  api.post("/reload", async (context) => {
    await session.reload()
    return context.json(session.view() ?? null)
  })
  api.get("/history/:id/output", (context) => {
    const output = session.savedOutput(historyId(context.req.param("id")))
    if (output === undefined) return context.text("no saved output for this call", 404)
    return context.text(output)
  })
  api.get("/history/:id/full", (context) => {
    const whole = session.fullEntry(historyId(context.req.param("id")))
    if (whole === undefined) return context.text("this call is kept whole in the history", 404)
    return context.body(whole, 200, { "Content-Type": "application/json; charset=utf-8" })
  })
  // `?page=ID`: the page that listens, open while it does (a save re-runs each open page's last call).
  api.get("/events", (context) => {
    const query = context.req.query("page")
    const page = query === undefined ? undefined : pageOf({ page: query })
    if (page === null) return context.json({ error: { code: "USAGE", message: `not a page: ${PAGE_SHAPE}` } }, 400)
    return streamSSE(context, async (stream) => {
      const queue: InspectorEvent[] = []
      let wake: (() => void) | undefined
      const unsubscribe = session.subscribe((event) => {
        queue.push(event)
        wake?.()
      }, page)
      stream.onAbort(() => {
        unsubscribe()
        wake?.()
      })
      // The state as it is now, so a page that (re)connects needs nothing else: the history as it
      // is kept, each entry cut to ENTRY_BUDGET characters (bounded.ts), never the calls' whole text.
      await stream.writeSSE({
        event: "hello",
        data: JSON.stringify({ view: session.view() ?? null, history: session.history() }),
      })
      while (!stream.aborted && !stream.closed) {
        const event = queue.shift()
        if (event) {
          await stream.writeSSE({ event: event.type, data: JSON.stringify(event) })
          continue
        }
        await new Promise<void>((resolve) => {
          wake = resolve
        })
        wake = undefined
      }
    })
  })
  // Any other method on the API's routes: 405, naming the one each answers (HEAD goes with GET).
  for (const [route, method] of API_METHODS)
    api.all(route, (context) =>
      context.json(
        { error: { code: "USAGE", message: `${context.req.method} is not allowed here: send ${method}` } },
        405,
        { Allow: method === "GET" ? "GET, HEAD" : method },
      ),
    )
  app.route(`/${token}/api`, api)

  // The page's URLs are relative to it: opened without its final slash, they would lose the token.
  app.get(`/${token}`, (context) => context.redirect(`/${token}/`, 308))

  app.get(`/${token}/*`, (context) => {
    const wanted = context.req.path.slice(token.length + 2) || "index.html"
    const asset = assets.get(wanted)
    if (!asset) return context.text("not found", 404)
    if (wanted === "index.html") context.header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    return context.body(asset.body as Uint8Array<ArrayBuffer>, 200, { "Content-Type": asset.type })
  })
  return app
}

// --- internal ---

/** The API's routes, each with the method it answers. */
const API_METHODS: ReadonlyArray<readonly [string, "GET" | "POST"]> = [
  ["/project", "GET"],
  ["/history", "GET"],
  ["/call", "POST"],
  ["/history/:id/replay", "POST"],
  ["/history/:id/cancel", "POST"],
  ["/reload", "POST"],
  ["/history/:id/output", "GET"],
  ["/history/:id/full", "GET"],
  ["/events", "GET"],
]

/** A history entry's id as the page writes it (digits), else none: `1e0` or ` 1` name no call. */
function historyId(text: string): number {
  return /^[1-9]\d{0,15}$/.test(text) ? Number(text) : Number.NaN
}

/** The page runs only its own scripts and styles, talks only to this server, and cannot be framed. */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/** What names the page that asks for a call or a replay (optional), for the message that refuses another. */
const PAGE_SHAPE = '"page", when given, is the asking page\'s id: 1 to 64 letters, digits, "_" or "-"'

/** What a call's body holds, for the message that refuses another. */
const CALL_SHAPE = `send {"name": TOOL, "form": "args", "args": {...}} or {"name": TOOL, "form": "raw", "text": "..."}, with "model": {"provider": NAME, "modelID": ID, "input": [some of ${MODEL_MODALITIES.join(", ")}]} to make it for a model (a provider tool-tester knows, as run --provider takes it); ${PAGE_SHAPE}`

/**
 * The page that asks (`"page"` in the body: the id the page made when it opened, so that it shows
 * the result and the other pages only list it): undefined when not given, null when not an id.
 */
function pageOf(body: unknown): string | undefined | null {
  if (typeof body !== "object" || body === null || !("page" in body)) return undefined
  const { page } = body as { page: unknown }
  return typeof page === "string" && /^[\w-]{1,64}$/.test(page) ? page : null
}

function callRequest(body: unknown): CallRequest | undefined {
  if (typeof body !== "object" || body === null) return undefined
  const { name, form, args, text, model } = body as Record<string, unknown>
  if (typeof name !== "string" || name === "") return undefined
  let chosen: { model?: CallModel } = {}
  if (model !== undefined) {
    const valid = callModel(model)
    if (valid === undefined) return undefined
    chosen = { model: valid }
  }
  if (form === "raw" && typeof text === "string") return { name, ...chosen, form, text }
  // The arguments as given, any JSON (a model may send anything), but given: none is not {}.
  if (form === "args" && "args" in (body as object)) return { name, ...chosen, form, args }
  return undefined
}

/** The model a call is made for: a provider tool-tester knows, a model id, known inputs; else undefined. */
function callModel(value: unknown): CallModel | undefined {
  if (typeof value !== "object" || value === null) return undefined
  const { provider, modelID, input } = value as Record<string, unknown>
  if (typeof provider !== "string" || typeof modelID !== "string" || !Array.isArray(input)) return undefined
  if (modelID === "" || modelID.length > 200 || provider.length > 200) return undefined
  if (!input.every((entry) => MODEL_MODALITIES.includes(entry)) || new Set(input).size !== input.length)
    return undefined
  try {
    modelSelection({ provider, model: modelID })
  } catch {
    return undefined
  }
  return { provider, modelID, input }
}
