// Echoes its arguments; the probe sends it broken JSON to record Bun's parse error texts.
export default { description: "echo", args: {}, execute: async (args: unknown) => `got ${JSON.stringify(args)}` }
