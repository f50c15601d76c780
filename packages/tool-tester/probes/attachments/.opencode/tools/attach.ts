// One result with attachments per case, for the attachments probe runs: what the model's next
// request carries of each, per provider and model input.
import { tool } from "@opencode-ai/plugin"

// A 1x1 PNG, and one whose header is good but whose pixels cannot be decoded.
const png =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg=="
const badPng =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"
const text = { type: "file", mime: "text/plain", url: "data:text/plain;base64,aGVsbG8=", filename: "hello.txt" }
const image = { type: "file", mime: "image/png", url: png, filename: "dot.png" }
const pdf = {
  type: "file",
  mime: "application/pdf",
  url: "data:application/pdf;base64,JVBERi0xLjQK",
  filename: "doc.pdf",
}
const wav = { type: "file", mime: "audio/wav", url: "data:audio/wav;base64,UklGRg==", filename: "a.wav" }

const cases: Record<string, { output: string; attachments: unknown[] }> = {
  text: { output: "see text", attachments: [text] },
  png: { output: "see png", attachments: [image] },
  pngNoName: { output: "see png", attachments: [{ type: "file", mime: "image/png", url: png }] },
  pdfNoName: { output: "see pdf", attachments: [{ type: "file", mime: "application/pdf", url: pdf.url }] },
  several: { output: "see several", attachments: [text, image, pdf] },
  badPng: { output: "see bad", attachments: [{ type: "file", mime: "image/png", url: badPng, filename: "bad.png" }] },
  emptyOutput: { output: "", attachments: [text] },
  notFile: { output: "see other", attachments: [{ type: "text", text: "hi" }] },
  audioAndPng: { output: "see both", attachments: [wav, image] },
}

export default tool({
  description: "Returns a result with attachments",
  args: { case: tool.schema.string().describe("Which case") },
  async execute(args) {
    const chosen = cases[args.case]
    if (chosen === undefined) throw new Error(`no case ${args.case}`)
    return { title: args.case, output: chosen.output, metadata: {}, attachments: chosen.attachments }
  },
})
