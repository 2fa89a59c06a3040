/** What a scenario hands back: tables for people, targets checked against the anchors, raw data for the JSON. */

export interface Table {
  title?: string;
  columns: string[];
  rows: string[][];
}

/** One anchor target (docs: /work/shared/reference/performance-anchors.md §5): a target, never an assertion. */
export interface TargetCheck {
  /** What is compared, e.g. "added p50 at c=1". */
  name: string;
  /** The target as written, e.g. "≤ 20 µs". */
  target: string;
  measured: string;
  /** null when the figure could not be measured in this run, or in a --quick smoke run. */
  pass: boolean | null;
  /** For a miss: by how much, in words ("+14 µs over, 1.7x the target"). */
  by?: string;
}

export interface ScenarioReport {
  name: string;
  title: string;
  /** How it was measured, one bullet each. */
  method: string[];
  tables: Table[];
  targets: TargetCheck[];
  notes: string[];
  /** Everything measured, for the JSON file. */
  data: unknown;
  durationMs?: number;
}

/** A markdown table. */
export function renderTable(t: Table): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const lines = [
    `| ${t.columns.map(esc).join(' | ')} |`,
    `|${t.columns.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...t.rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ];
  return (t.title ? `**${t.title}**\n\n` : '') + lines.join('\n');
}

/** The anchor targets of a scenario as a markdown table. */
export function renderTargets(targets: readonly TargetCheck[]): string {
  if (targets.length === 0) return '';
  const mark = (p: boolean | null) => (p === null ? 'n/a' : p ? 'pass' : '**miss**');
  return renderTable({
    title: 'Anchor targets (targets, not assertions)',
    columns: ['target', 'goal', 'measured', 'result', 'by'],
    rows: targets.map((t) => [t.name, t.target, t.measured, mark(t.pass), t.by ?? '']),
  });
}

/** A scenario's section of the summary: title, method, tables, targets, notes. */
export function renderScenario(r: ScenarioReport, withMethod = true): string {
  const parts = [`### ${r.title}`];
  if (withMethod && r.method.length) parts.push(r.method.map((m) => `- ${m}`).join('\n'));
  for (const t of r.tables) parts.push(renderTable(t));
  const targets = renderTargets(r.targets);
  if (targets) parts.push(targets);
  if (r.notes.length) parts.push(r.notes.map((n) => `> ${n}`).join('\n>\n'));
  return parts.join('\n\n');
}

/** "+14 µs over (1.7x the target)" for an upper-bound target. */
export function overBy(measured: number, limit: number, unit: string, digits = 1): string {
  const over = measured - limit;
  return `${over >= 0 ? '+' : ''}${over.toFixed(digits)} ${unit} over (${(measured / limit).toFixed(2)}x the target)`;
}

/** "3.1 points under" for a lower-bound ratio target. */
export function underBy(measured: number, floor: number, unit = 'points'): string {
  return `${((floor - measured) * 100).toFixed(1)} ${unit} under (${(measured / floor).toFixed(3)}x the target)`;
}

/** One target check; `by` is kept only for a miss. */
export function check(name: string, target: string, measured: string, pass: boolean | null, by?: string): TargetCheck {
  return pass === false ? { name, target, measured, pass, by } : { name, target, measured, pass };
}
