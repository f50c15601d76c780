import { render } from "preact"
import { App } from "./app.ts"
import { html } from "./html.ts"
import "./style.css"

render(html`<${App} />`, document.getElementById("app")!)
