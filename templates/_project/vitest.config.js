// __SNAPSHOT_WATCH__ watches the tests: this plugin makes a save of a tool file re-run
// them too. Tool files load in opencode's own engine, outside vitest's module graph, so vitest would
// miss the edit.
import { toolTester } from "@opencode-ai/tool-tester/vitest"
import { defineConfig } from "vitest/config"

export default defineConfig({ plugins: [toolTester()] })
