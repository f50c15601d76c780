// Which opencode tool-tester speaks for. Only constants here: `tool-tester --version` reads them,
// and that path loads nothing else (docs/fidelity.md#opencode-versions).

/** The opencode version whose behaviour tool-tester reproduces (docs/opencode-contract.md). */
export const MODELLED_OPENCODE_VERSION = "1.18.34"

/** The oldest opencode version this repository's goldens were checked against. */
export const OLDEST_CHECKED_OPENCODE_VERSION = "1.18.34"
