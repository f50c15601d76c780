import { createHash } from "node:crypto"
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { expect, test } from "vitest"
import { nextStepCommands, run, runCli, useTmpDir } from "./helpers.ts"

// npm's printed tool-tester step names the bin, `tool-tester`, which is not a package on npm: if the
// install step was skipped or failed, a plain `npx --prefix .opencode tool-tester` downloads and
// runs whatever package holds that name (in CI without asking). The printed `--no` stops it. A
// registry on 127.0.0.1 serves such a package, and the same line without `--no` shows it would run.

test("npm's printed tool-tester step, with the install skipped, never runs a package named tool-tester from the registry", async () => {
  const cwd = useTmpDir()
  const created = await runCli(["hello"], { cwd })
  expect(created.code).toBe(0)
  const commands = nextStepCommands(created.stdout)
  const step = commands.find((command) => command.includes(" tool-tester run "))
  expect(step).toBe("npx --no --prefix .opencode tool-tester run hello input=hello")

  const squatter = join(useTmpDir(), "package")
  mkdirSync(squatter)
  writeFileSync(
    join(squatter, "package.json"),
    JSON.stringify({ name: "tool-tester", version: "9.9.9", bin: "bin.js" }),
  )
  writeFileSync(join(squatter, "bin.js"), '#!/usr/bin/env node\nconsole.log("SQUATTER RAN")\n')
  const packs = useTmpDir()
  const cache = useTmpDir()
  const packed = await run("npm", ["pack", squatter, "--pack-destination", packs], {
    cwd: packs,
    env: { npm_config_cache: cache },
  })
  expect(packed.code, packed.stderr).toBe(0)
  const tarball = readFileSync(join(packs, readdirSync(packs).find((name) => name.endsWith(".tgz"))!))

  const server = createServer((request, response) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    if (request.url === "/tool-tester") {
      const manifest = { name: "tool-tester", version: "9.9.9", bin: { "tool-tester": "bin.js" } }
      const dist = {
        tarball: `${base}/-/tool-tester-9.9.9.tgz`,
        integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
      }
      const versions = { "9.9.9": { ...manifest, _id: "tool-tester@9.9.9", dist } }
      return void response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ name: "tool-tester", "dist-tags": { latest: "9.9.9" }, versions }))
    }
    if (request.url === "/-/tool-tester-9.9.9.tgz") return void response.writeHead(200).end(tarball)
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  try {
    const registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    // npx's answer to its "Ok to proceed?" when nobody can answer: yes in CI and without a terminal,
    // unless a config says otherwise (this machine's global npmrc does); a user's npmrc may say yes.
    const env = {
      npm_config_registry: registry,
      npm_config_cache: cache,
      npm_config_update_notifier: "false",
      npm_config_yes: "true",
    }
    const printed = await run("bash", ["-c", step!], { cwd, env, timeout: 120_000 })
    expect(printed.code, printed.stdout + printed.stderr).not.toBe(0)
    expect(printed.stdout + printed.stderr).not.toContain("SQUATTER RAN")
    expect(printed.stderr).toContain("npx canceled due to missing packages and no YES option")

    const withoutNo = await run("bash", ["-c", step!.replace("npx --no ", "npx ")], { cwd, env, timeout: 120_000 })
    expect(withoutNo.stdout, withoutNo.stderr).toContain("SQUATTER RAN")
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}, 300_000)
