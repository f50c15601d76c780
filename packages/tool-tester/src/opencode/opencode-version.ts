// Which opencode tool-tester speaks for (docs/fidelity.md#opencode-versions). Only constants here.
// `tool-tester --version` loads no module for it: bin.js and src/cli/main.ts repeat the modelled
// version, and test/cli/usage.test.ts checks they agree.

/** The opencode version whose behaviour tool-tester reproduces (docs/opencode-contract.md). */
export const MODELLED_OPENCODE_VERSION = "1.18.34"

/**
 * The oldest opencode version this repository's goldens were checked against: 1.18.33, the
 * `opencode-ai` that npm installs, agrees with every `tool-tester verify` check.
 */
export const OLDEST_CHECKED_OPENCODE_VERSION = "1.18.33"
