// opencode's image step under the config's `attachment.image` limits (docs/opencode-contract.md#attachments),
// under both engines. Every literal is what opencode 1.18.34 sent e2e's mock model for
// test/fixtures/attachments' `smallNoisy` case (a 300x200 noise PNG named small.png, then a 1x1 PNG),
// one `tool-tester e2e --provider anthropic --config '{"attachment":{"image":{...}}}'` run per
// setting: the image blocks' media type, base64 length and the SHA-256 of that text; under the first
// setting, also its `wide` case (a 2400x60 PNG), from the Anthropic setup under those limits that
// test/e2e/attachments.test.ts compared with the binary. The default limits (images over 2000
// pixels or 5 MiB) are compared with the binary in test/e2e/attachments.test.ts; how each provider
// carries the images sent is compared there too.
import { createHash } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import path from "node:path"
import { afterAll, describe, expect, test } from "vitest"
import { closeProject, loadTools, runTool } from "../src/index.ts"
import type { ToolProject } from "../src/types.ts"
import { fixture, packageRoot } from "./helpers.ts"

mkdirSync(path.join(packageRoot, ".tmp"), { recursive: true })
const home = mkdtempSync(path.join(packageRoot, ".tmp", "home-"))
const projects: ToolProject[] = []
afterAll(async () => {
  for (const project of projects) await closeProject(project)
  rmSync(home, { recursive: true, force: true })
})

/** The 1x1 PNG, within every limit but the smallest: kept as it is. */
const DOT = {
  mime: "image/png",
  length: 96,
  sha256: "37e4849e434f4df718e44668b96408ae03ce5ef7955b73eb469926e8aedc881a",
  filename: "dot.png",
}
const omitted = (count: number) =>
  `\n\n[${count} image${count === 1 ? "" : "s"} omitted: could not be resized below the image size limit.]`

const settings: Array<{
  name: string
  image: Record<string, unknown>
  output: string
  sent: Array<{ mime: string; length: number; sha256: string; filename?: string }> | undefined
  /** Other cases under the same setting: what opencode sent of each. */
  others?: Array<{
    which: string
    output: string
    sent: Array<{ mime: string; length: number; sha256: string; filename?: string }>
  }>
}> = [
  {
    name: "scaled to fit (120x80), then a JPEG when the PNG's text is too long",
    image: { max_width: 120, max_height: 120, max_base64_bytes: 30000 },
    output: "see small noisy",
    sent: [
      {
        mime: "image/jpeg",
        length: 10672,
        sha256: "9d530b5f56b0e4a5ba9e9968981d7d1b92121ec86daca7432867af193eeeabd7",
        filename: "small.png",
      },
      DOT,
    ],
    // Scaled to fit (120x3): a PNG within the length.
    others: [
      {
        which: "wide",
        output: "see wide",
        sent: [
          {
            mime: "image/png",
            length: 1248,
            sha256: "be648d7309eedd146a568c71cda45ceb1ec8b1a3c19d0b6e60a5e5b0506410ca",
            filename: "wide.png",
          },
        ],
      },
    ],
  },
  {
    name: "within the sides but not the length: three quarters at a time until a JPEG fits",
    image: { max_base64_bytes: 3000 },
    output: "see small noisy",
    sent: [
      {
        mime: "image/jpeg",
        length: 2784,
        sha256: "3c3f02f9d345ef60bd5011c83782d6e226cd5042ca53c2f255dbb036d8b20593",
        filename: "small.png",
      },
      DOT,
    ],
  },
  {
    name: "auto_resize false: an image over the limits is dropped",
    image: { auto_resize: false, max_width: 100 },
    output: `see small noisy${omitted(1)}`,
    sent: [DOT],
  },
  {
    name: "nothing fits, not even at 1x1: both are dropped",
    image: { max_base64_bytes: 50 },
    output: `see small noisy${omitted(2)}`,
    sent: undefined,
  },
]

describe.each(["node", "bun"] as const)("the %s engine", (engine) => {
  for (const setting of settings)
    test(setting.name, { timeout: 120_000 }, async () => {
      const project = await loadTools({
        directory: fixture("attachments"),
        env: { XDG_CONFIG_HOME: path.join(home, ".config") },
        home,
        engine,
        config: { attachment: { image: setting.image } },
      })
      projects.push(project)
      const expected = [{ which: "smallNoisy", output: setting.output, sent: setting.sent }, ...(setting.others ?? [])]
      for (const { which, output, sent } of expected) {
        const result = await runTool(project, "attach", { case: which })
        expect(result.status).toBe("completed")
        expect(result.output).toBe(output)
        expect(sentOf(result.attachments)).toEqual(
          sent?.map((image) => ({ ...image, url: `data:${image.mime};base64,` })),
        )
      }
    })
})

/** Each attachment sent: its media type, the length and SHA-256 of its base64 text, its filename and URL head. */
function sentOf(attachments: unknown) {
  return (attachments as Array<Record<string, unknown>> | undefined)?.map((attachment) => {
    const url = attachment["url"] as string
    const text = url.slice(url.indexOf(";base64,") + ";base64,".length)
    return {
      mime: attachment["mime"],
      length: text.length,
      sha256: createHash("sha256").update(text).digest("hex"),
      ...(attachment["filename"] === undefined ? {} : { filename: attachment["filename"] }),
      url: url.slice(0, url.indexOf(",") + 1),
    }
  })
}
