// `tool-tester verify`'s options, in one place: what the parser accepts, and for each the help's
// flag and meaning (the type makes every parsed option have its help).

export const VERIFY_FLAGS = {
  opencode: { type: "string" },
  concurrency: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const

export const VERIFY_OPTION_HELP: Record<keyof typeof VERIFY_FLAGS, readonly [flag: string, meaning: string]> = {
  opencode: [
    "--opencode PATH",
    "The opencode binary to check against (default: as e2e finds it: opencode-ai's platform package from the project or tool-tester, else opencode on PATH)",
  ],
  concurrency: ["--concurrency N", "Probe runs at once (default 4)"],
  json: ["--json", "The report as one JSON document on stdout (every difference, both texts in full)"],
  help: ["-h, --help", "Show this help"],
}
