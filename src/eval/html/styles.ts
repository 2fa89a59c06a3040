/** The report's whole stylesheet, inlined: system fonts only, nothing fetched. */
export const REPORT_CSS = `
:root { --pass: #15803d; --fail: #b91c1c; --error: #7c3aed; --mixed: #b45309; --ink: #111827; --muted: #6b7280; --line: #e5e7eb; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f9fafb; }
main { max-width: 1600px; margin: 0 auto; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 10px; }
.meta, .note { color: var(--muted); }
.banner { padding: 8px 12px; border-radius: 6px; margin-top: 10px; font-weight: 600; }
.banner.ok { background: #dcfce7; color: var(--pass); } .banner.bad { background: #fee2e2; color: var(--fail); }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid var(--line); padding: 5px 9px; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.below td, tr.below th { background: #fef2f2; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(460px, 1fr)); gap: 16px; align-items: start; }
.chart-card { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.chart-card figcaption { font-weight: 600; margin-bottom: 6px; }
svg.chart { display: block; min-height: 40px; }
svg.chart text { font: 11px system-ui, sans-serif; fill: var(--ink); }
svg.chart text.missing { fill: var(--muted); font-style: italic; }
svg.chart text.below, svg.chart text.marker-label { fill: var(--fail); font-weight: 600; }
.s0 { fill: #2563eb; } .s1 { fill: #f59e0b; } .s2 { fill: #7c3aed; }
.c-pass { fill: var(--pass); } .c-fail { fill: var(--fail); } .c-error { fill: var(--error); }
.bar.below { fill: var(--fail); }
line.axis { stroke: #9ca3af; } line.marker { stroke: var(--fail); stroke-dasharray: 4 3; stroke-width: 1.5; }
.grid-wrap { overflow-x: auto; }
.cell.pass { background: #dcfce7; color: var(--pass); } .cell.fail { background: #fee2e2; color: var(--fail); }
.cell.error { background: #ede9fe; color: var(--error); } .cell.mixed { background: #fef3c7; color: var(--mixed); }
.sym { font-weight: 700; margin-right: 3px; }
.flag { color: var(--mixed); font-weight: 700; margin-left: 6px; }
.legend-row span { display: inline-block; padding: 1px 8px; margin-right: 6px; border-radius: 4px; }
pre { white-space: pre-wrap; word-break: break-word; background: #f3f4f6; padding: 6px 8px; border-radius: 4px; margin: 4px 0; font: 12px/1.4 ui-monospace, Menlo, Consolas, monospace; }
.toolbar { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 10px; align-items: center; background: #f9fafb; padding: 6px 0; border-bottom: 1px solid var(--line); }
.filters { border: 1px solid var(--line); border-radius: 6px; padding: 2px 8px; margin: 0; } .filters label { margin-right: 10px; white-space: nowrap; }
.filters label.off { color: var(--muted); }
#search { min-width: 280px; padding: 4px 8px; border: 1px solid #d1d5db; border-radius: 4px; font: inherit; }
/* Rows are grids, not table rows, so the browser skips layout and paint of rows off screen
   (content-visibility does not apply to table rows): 500 cases x 6 columns open and filter quickly. */
table.sxs, table.sxs thead, table.sxs tbody { display: block; width: max-content; }
table.sxs tr { display: grid; grid-template-columns: 220px repeat(var(--cols), 300px); }
table.sxs tbody tr { content-visibility: auto; contain-intrinsic-size: auto 180px; }
table.sxs tr[hidden] { display: none; }
table.sxs th, table.sxs td { display: block; border-width: 0 1px 1px 0; }
table.sxs thead th { background: #f3f4f6; } table.sxs th.case-head { background: #fff; }
table.sxs td.cell.pass { background: #f0fdf4; } table.sxs td.cell.fail { background: #fef2f2; } table.sxs td.cell.error { background: #f5f3ff; } table.sxs td.cell.mixed { background: #fffbeb; }
td.cell .verdict { font-weight: 600; }
td.cell pre.answer, .repeat pre.answer { max-height: 12em; overflow: auto; background: #fff; color: var(--ink); border: 1px solid var(--line); }
td.cell .answer.none { color: var(--muted); font-style: italic; }
ul.checks { margin: 2px 0; padding-left: 16px; color: var(--ink); font-size: 12px; } ul.checks li.fail { color: var(--fail); } ul.checks li.grader { color: var(--mixed); } ul.checks li.error { color: var(--error); }
.facts { color: var(--muted); font-size: 12px; }
.tools button { font: 12px system-ui, sans-serif; margin: 4px 4px 0 0; padding: 1px 8px; border: 1px solid #d1d5db; border-radius: 4px; background: #fff; cursor: pointer; }
button.pick[aria-pressed="true"] { background: #2563eb; color: #fff; border-color: #2563eb; }
.tag { display: inline-block; font-size: 11px; font-weight: 600; padding: 0 5px; margin-left: 5px; border-radius: 3px; background: #e5e7eb; color: var(--ink); }
.tag.regressed { background: var(--fail); color: #fff; } .tag.fixed { background: var(--pass); color: #fff; } .tag.cached { background: #dbeafe; color: #1e40af; }
.case-id { font-weight: 700; word-break: break-word; } .prompt { font-weight: 400; color: var(--muted); margin: 2px 0; word-break: break-word; }
.expects { font-weight: 400; font-size: 12px; color: var(--muted); } details.messages summary { cursor: pointer; font-weight: 400; font-size: 12px; }
ol.repeat-list { margin: 6px 0 0; padding-left: 18px; } ol.repeat-list li { margin-bottom: 6px; font-size: 12px; }
.repeat button.pick { font-size: 11px; }
.diff-panel { position: fixed; left: 0; right: 0; bottom: 0; z-index: 3; max-height: 40vh; overflow: auto; background: #fff; border-top: 2px solid #2563eb; padding: 8px 24px; box-shadow: 0 -4px 12px rgba(0,0,0,.08); }
.diff-bar { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; }
#diff-out del { background: #fee2e2; color: var(--fail); } #diff-out ins { background: #dcfce7; color: var(--pass); text-decoration: none; }
ul.comparisons li.shown { font-weight: 600; } ul.comparisons li.not-shown { color: var(--muted); }
dl.defs dt { font-weight: 600; } dl.defs dd { margin: 0 0 8px 0; color: var(--muted); }
`;
