// `run --model-input` and what `run` shows of a result with attachments: the request's messages
// that carry it (docs/cli.md#run; literals observed on opencode 1.18.34, test/attachments.test.ts).
import { describe, expect, test } from "vitest"
import type { CliIO } from "../../src/cli/_command.ts"
import { runCommand } from "../../src/cli/commands/run.ts"
import { fixture } from "../helpers.ts"
import { isolatedEnvironment } from "../support/tmp-project.ts"

function memoryIO(cwd: string): CliIO & { out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  return {
    cwd,
    env: { ...process.env, ...isolatedEnvironment().env },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    write: (text) => void out.push(text),
    writeError: (text) => void err.push(text),
    chdir: () => {},
    onInterrupt: () => () => {},
    out,
    err,
  }
}

async function run(flags: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const io = memoryIO(fixture("attachments"))
  const exitCode = await runCommand(["attach", "--engine", "node", ...flags], io)
  return { exitCode, stdout: io.out.join(""), stderr: io.err.join("") }
}

const NO_IMAGE =
  '{"type":"text","text":"ERROR: Cannot read \\"dot.png\\" (this model does not support image input). Inform the user."}'

describe("run with attachments", { timeout: 120_000 }, () => {
  test("the report shows the messages that carry the result, the model's input as --model-input says", async () => {
    const without = await run(["case=png"])
    expect(without.exitCode).toBe(0)
    expect(without.stdout).toMatch(
      /── with the attachments, the model's request carries ─+\n\{"role":"tool","tool_call_id":"call_\w+","content":"see png"\}\n/,
    )
    expect(without.stdout).toContain(
      `{"role":"user","content":[{"type":"text","text":"Attached media from tool result:"},${NO_IMAGE}]}`,
    )
    const withImages = await run(["case=png", "--model-input", "text,image"])
    expect(withImages.stdout).not.toContain(NO_IMAGE)
    expect(withImages.stdout).toContain('{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo')
  })

  test("--json has modelMessages; a provider not modelled is said to be", async () => {
    const json = JSON.parse((await run(["case=text", "--provider", "openai", "--json"])).stdout)
    expect(json.modelMessages).toEqual([
      {
        type: "function_call_output",
        call_id: expect.stringMatching(/^call_/),
        output: [
          { type: "input_text", text: "see text" },
          { type: "input_file", filename: "data", file_data: "data:text/plain;base64,aGVsbG8=" },
        ],
      },
    ])
    const perplexity = await run(["case=text", "--provider", "perplexity"])
    expect(perplexity.stdout).toContain(
      "model gets  the output with its attachments in this provider's own form, not modelled here",
    )
  })

  test("cohere: the report adds the request's documents, where the files the model reads go", async () => {
    const human = await run(["case=png", "--provider", "cohere", "--model-input", "image"])
    expect(human.exitCode).toBe(0)
    expect(human.stdout).toMatch(
      /\{"role":"tool","content":"see png","tool_call_id":"call_\w+"\}\n\{"role":"user","content":"Attached media from tool result:"\}\n── and in the request's documents ─+\n\{"data":\{"text":"iVBORw0KGgo[^"]*","title":"dot.png"\}\}\n── end of the request's messages/,
    )
    const json = JSON.parse(
      (await run(["case=png", "--provider", "cohere", "--model-input", "image", "--json"])).stdout,
    )
    expect(json.modelDocuments).toEqual([{ data: { text: expect.stringMatching(/^iVBORw0KGgo/), title: "dot.png" } }])
  })

  test("a result the provider cannot send: the report says opencode's run ends, and with which error", async () => {
    const error = "'file part media type application/pdf' functionality not supported."
    const human = await run(["case=pdfNoName", "--provider", "xai", "--model-input", "pdf"])
    // The call completed; opencode's run ends after it: exit 4, one line saying what to do.
    expect(human.exitCode).toBe(4)
    expect(human.stdout).toContain(`model gets  nothing: opencode's run ends with "${error}"`)
    expect(human.stderr).toContain(
      `the call completed, but opencode's run would end as it sends the result to this provider's model: ${error} Return that file as text in the output, or as a type this provider takes [RESULT_UNSENDABLE]`,
    )
    expect(human.stdout).not.toContain("with the attachments, the model's request carries")
    const machine = await run(["case=pdfNoName", "--provider", "xai", "--model-input", "pdf", "--json"])
    expect(machine.exitCode).toBe(4)
    expect(JSON.parse(machine.stderr)).toMatchObject({ error: { code: "RESULT_UNSENDABLE" } })
    expect(JSON.parse(machine.stdout)).toMatchObject({ modelMessages: null, modelRequestError: error })
    const withoutPdf = JSON.parse((await run(["case=pdfNoName", "--provider", "xai", "--json"])).stdout)
    expect(withoutPdf.modelRequestError).toBeUndefined()
    expect(withoutPdf.modelMessages).toHaveLength(2)
    // Bedrock's error has no full stop of its own: the line adds one.
    const bedrock = await run(["case=json", "--provider", "amazon-bedrock"])
    expect(bedrock.exitCode).toBe(4)
    expect(bedrock.stderr).toContain("text/plain, text/markdown. Return that file as text in the output")
  })

  test("--model-input takes only known inputs", async () => {
    await expect(run(["case=text", "--model-input", "images"])).rejects.toThrow(
      '--model-input: "images" is no model input (did you mean image?); give some of image, audio, video, pdf, comma-separated',
    )
  })
})
