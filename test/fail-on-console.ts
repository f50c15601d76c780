import { afterEach, beforeEach, vi } from "vitest"

// A test that prints unexpectedly is usually a test that hides a failure: make it fail.
const methods = ["log", "info", "warn", "error", "debug"] as const
let calls: string[] = []

beforeEach(() => {
  calls = []
  for (const method of methods) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      calls.push(`console.${method}: ${args.map(String).join(" ")}`)
    })
  }
})

afterEach(() => {
  vi.restoreAllMocks()
  if (calls.length > 0) throw new Error(`Unexpected console output:\n${calls.join("\n")}`)
})
