// opencode runs tools on Bun; the corpus declares the one Bun API its examples use.
declare const Bun: {
  $(strings: TemplateStringsArray, ...values: unknown[]): { text(): Promise<string> }
}
