// The eval page's stylesheet, inlined into the page (render-html.ts): light and dark, colours with
// at least 4.5:1 contrast for text, and the pass rate never told by colour alone (the cell says 6/10).

export const PAGE_STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--panel:#f6f8fa;
--pass-bg:#d8f5dd;--pass-fg:#0b5a1c;--some-bg:#fff1c2;--some-fg:#6b4a00;--fail-bg:#fde0e0;--fail-fg:#8a1010;
--none-bg:#eceff1;--none-fg:#3b4248;--pass-bar:#2da44e;--some-bar:#bf8700;--fail-bar:#cf222e;--none-bar:#8c959f}
@media (prefers-color-scheme:dark){:root{--bg:#0f1419;--fg:#e6e8eb;--muted:#a3acb6;--line:#3a424b;--panel:#171d24;
--pass-bg:#133d20;--pass-fg:#b6f0c4;--some-bg:#45380b;--some-fg:#ffe39a;--fail-bg:#4a1717;--fail-fg:#ffc6c6;
--none-bg:#2a3038;--none-fg:#d0d6dd;--pass-bar:#3fb950;--some-bar:#d29922;--fail-bar:#f85149;--none-bar:#6e7681}}
*{box-sizing:border-box}
body{margin:0;padding:1.5rem;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
h1{font-size:1.5rem;margin:0 0 .25rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
h3{font-size:.95rem;margin:1rem 0 .35rem}
h4{font-size:.9rem;margin:.75rem 0 .25rem;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
p{margin:.25rem 0}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem}
pre{margin:.25rem 0;padding:.4rem .5rem;background:var(--panel);border:1px solid var(--line);border-radius:4px;
white-space:pre-wrap;overflow-wrap:anywhere;max-height:24rem;overflow:auto}
.meta,.muted,.legend,.figures,.prompt,.label{color:var(--muted)}
.label{font-size:.85rem;margin-top:.35rem}
.totals{font-weight:600}
.scroll{overflow-x:auto;margin-top:1rem}
table.matrix{border-collapse:collapse;width:100%}
.matrix caption{text-align:left;color:var(--muted);padding-bottom:.5rem}
.matrix th,.matrix td{border:1px solid var(--line);padding:.5rem;vertical-align:top;text-align:left;overflow-wrap:anywhere}
.matrix thead th{background:var(--panel);font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem}
.matrix thead th:first-child{font-family:inherit;font-size:inherit}
.matrix th[scope=row]{width:12rem;max-width:16rem}
.cell{min-width:9rem}
/* An open cell takes the room it needs; the closed ones give it up. */
.cell details[open]{min-width:min(30rem,60vw)}
.matrix th[scope=row]{font-weight:normal;background:var(--panel)}
.case{display:block;font-weight:600;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.prompt{display:block;font-size:.85rem;margin-top:.25rem}
summary{cursor:pointer;display:flex;flex-wrap:wrap;align-items:center;gap:.4rem}
/* The cell's summary is a flex row, which drops the browser's triangle: draw one. */
.cell>details>summary::before{content:"▸";color:var(--muted);width:.8rem}
.cell>details[open]>summary::before{content:"▾"}
summary:focus-visible{outline:2px solid var(--fg);outline-offset:2px}
.rate{display:inline-block;font-weight:700;padding:.1rem .5rem;border-radius:1rem;font-variant-numeric:tabular-nums}
.rate-pass{background:var(--pass-bg);color:var(--pass-fg)}
.rate-some{background:var(--some-bg);color:var(--some-fg)}
.rate-fail{background:var(--fail-bg);color:var(--fail-fg)}
.rate-none{background:var(--none-bg);color:var(--none-fg)}
.legend .rate{margin-left:.5rem}
.was{font-size:.85rem;color:var(--muted)}
svg.trend rect.track{fill:var(--line)}
svg.trend rect.passed{fill:var(--pass-bar)}
svg.trend rect.failed{fill:var(--fail-bar)}
.bar-pass{color:var(--pass-fg)}
.bar-fail{color:var(--fail-fg)}
.interval{font-size:.85rem;color:var(--muted);font-variant-numeric:tabular-nums}
.cell-body{margin-top:.5rem;border-top:1px solid var(--line);padding-top:.25rem}
ul.reasons,ul.calls,ul.notes{margin:.25rem 0;padding-left:1.25rem}
ol.trials{margin:.25rem 0;padding-left:1.5rem}
ol.trials>li{margin-bottom:.75rem}
.trial-head{font-weight:600}
ol.trials summary{display:list-item;cursor:pointer}
.ok{color:var(--pass-fg);background:var(--pass-bg);padding:0 .3rem;border-radius:3px}
.bad{color:var(--fail-fg)}
span.bad{background:var(--fail-bg);padding:0 .3rem;border-radius:3px}
pre.bad{background:var(--fail-bg)}
.error{color:var(--fail-fg);background:var(--fail-bg);padding:.25rem .5rem;border-radius:4px;overflow-wrap:anywhere}
.count{font-weight:700}
.status{color:var(--muted);font-size:.85rem}
code.call{font-weight:600}
pre.diff ins{text-decoration:none;background:var(--pass-bg);color:var(--pass-fg)}
pre.diff del{text-decoration:none;background:var(--fail-bg);color:var(--fail-fg)}
`
