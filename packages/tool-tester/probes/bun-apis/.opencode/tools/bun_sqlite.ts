import { Database } from "bun:sqlite"
import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Creates, fills and queries an in-memory bun:sqlite database",
  args: {},
  async execute() {
    const db = new Database(":memory:")
    db.run("CREATE TABLE fruit (id INTEGER PRIMARY KEY, name TEXT NOT NULL, count INTEGER)")
    const insert = db.prepare("INSERT INTO fruit (name, count) VALUES (?, ?)")
    insert.run("apple", 3)
    insert.run("pear", 5)
    const rows = db.query("SELECT id, name, count FROM fruit ORDER BY id").all()
    db.close()
    return JSON.stringify(rows)
  },
})
