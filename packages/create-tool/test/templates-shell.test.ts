import { checkTemplate } from "./template-check.ts"

checkTemplate("shell")
