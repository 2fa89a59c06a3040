/** The report's whole stylesheet, inlined: system fonts only, nothing fetched. */
export const REPORT_CSS = `
:root { --pass: #15803d; --fail: #b91c1c; --error: #7c3aed; --mixed: #b45309; --ink: #111827; --muted: #6b7280; --line: #e5e7eb; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f9fafb; }
main { max-width: 1200px; margin: 0 auto; padding: 24px; }
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
table.grid td.cell { text-align: center; white-space: nowrap; cursor: help; min-width: 70px; }
.cell.pass { background: #dcfce7; color: var(--pass); } .cell.fail { background: #fee2e2; color: var(--fail); }
.cell.error { background: #ede9fe; color: var(--error); } .cell.mixed { background: #fef3c7; color: var(--mixed); }
td.cell .sym { font-weight: 700; margin-right: 3px; }
tr.disagree th { background: #fff7ed; } .flag { color: var(--mixed); font-weight: 700; margin-left: 6px; }
.legend-row span { display: inline-block; padding: 1px 8px; margin-right: 6px; border-radius: 4px; }
details.case { background: #fff; border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; padding: 6px 10px; }
details.case summary { cursor: pointer; font-weight: 600; }
pre { white-space: pre-wrap; word-break: break-word; background: #f3f4f6; padding: 6px 8px; border-radius: 4px; margin: 4px 0; font: 12px/1.4 ui-monospace, Menlo, Consolas, monospace; }
.answers td { max-width: 520px; }
dl.defs dt { font-weight: 600; } dl.defs dd { margin: 0 0 8px 0; color: var(--muted); }
`;
