// The plugin package's rule, checked by `pnpm check:deps` at the root: no import cycle.
const { noCircular, options } = require("../../dependency-cruiser.base.cjs")

module.exports = { forbidden: [noCircular], options }
