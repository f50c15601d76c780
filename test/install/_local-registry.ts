// A registry on 127.0.0.1 that serves this repository's packed packages and passes every other
// request to the npm registry: commands written for published packages (`npm create tool`,
// `npm install --prefix .opencode`) then run exactly as written, before anything is published.
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import path from "node:path"
import { root } from "./_packages.ts"
import { run } from "./_run.ts"

const upstream = "https://registry.npmjs.org"

export type LocalRegistry = { url: string; close: () => Promise<void> }

/** Serves the tarballs (package name -> .tgz) under their names, everything else from the npm registry. */
export async function startLocalRegistry(tarballs: Record<string, string>): Promise<LocalRegistry> {
  const packages = new Map<string, { manifest: Record<string, unknown>; file: string; data: Buffer }>()
  for (const [name, file] of Object.entries(tarballs)) {
    const result = await run("tar", ["-xzOf", file, "package/package.json"], { cwd: root, timeout: 60_000 })
    if (result.status !== 0) throw new Error(`Cannot read the manifest of ${file}: ${result.stderr}`)
    packages.set(name, { manifest: JSON.parse(result.stdout), file, data: readFileSync(file) })
  }

  const forwarded = new Map<string, Promise<Forwarded>>()
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    const address = server.address() as AddressInfo
    const base = `http://127.0.0.1:${address.port}`
    const tarball = url.pathname.startsWith("/-/tarballs/") ? path.basename(url.pathname) : undefined
    if (tarball !== undefined) {
      const entry = [...packages.values()].find((value) => path.basename(value.file) === tarball)
      if (entry === undefined) return void response.writeHead(404).end()
      return void response.writeHead(200, { "content-type": "application/octet-stream" }).end(entry.data)
    }
    const name = decodeURIComponent(url.pathname.slice(1))
    const entry = packages.get(name)
    if (entry !== undefined) {
      const version = entry.manifest.version as string
      const packument = {
        name,
        "dist-tags": { latest: version },
        versions: {
          [version]: {
            ...entry.manifest,
            _id: `${name}@${version}`,
            dist: {
              tarball: `${base}/-/tarballs/${path.basename(entry.file)}`,
              integrity: `sha512-${createHash("sha512").update(entry.data).digest("base64")}`,
              shasum: createHash("sha1").update(entry.data).digest("hex"),
            },
          },
        },
      }
      return void response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(packument))
    }
    forward(`${upstream}${url.pathname}${url.search}`, request.headers.accept, forwarded).then(
      ({ status, type, body }) => response.writeHead(status, { "content-type": type }).end(body),
      (error: unknown) => response.writeHead(502).end(String(error)),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => {
      forwarded.clear()
      return close(server)
    },
  }
}

// --- internal ---

type Forwarded = { status: number; type: string; body: Buffer }

/**
 * What the npm registry answered, kept while the registry runs (`forwarded`): the docs' pages run
 * at once, each with an npm cache of its own, and ask for the same packuments and tarballs
 * (vitest's, typescript's); each is fetched once. A failed fetch is not kept.
 */
function forward(
  url: string,
  accept: string | undefined,
  forwarded: Map<string, Promise<Forwarded>>,
): Promise<Forwarded> {
  const key = `${url}\0${accept ?? ""}`
  let answer = forwarded.get(key)
  if (answer === undefined) {
    answer = fetchUpstream(url, accept)
    forwarded.set(key, answer)
    answer.then(
      ({ status }) => (status === 200 ? undefined : forwarded.delete(key)),
      () => forwarded.delete(key),
    )
  }
  return answer
}

async function fetchUpstream(url: string, accept: string | undefined): Promise<Forwarded> {
  const response = await fetch(url, { headers: accept ? { accept } : {} })
  const body = Buffer.from(await response.arrayBuffer())
  return { status: response.status, type: response.headers.get("content-type") ?? "application/json", body }
}

function close(server: Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}
