import { formatRate } from '../format.js';
import { messageText } from '../../types.js';
import { cellHtml, MAX_ANSWER_CHARS } from './cell-html.js';
import { checkLines } from './cell-facts.js';
import { escapeHtml, excerpt } from './escape-html.js';
import { columnOfCell, columnOfTarget, columnsOf, pairSet, runIndex, type ViewCase, type ViewReport, type ViewRun } from './report-view.js';

/** One repeat as the page's script lists it under a cell: the data is text, never markup. */
interface RepeatData { repeat: number; status: 'pass' | 'fail' | 'error' | 'graded?'; text: string | null; latencyMs: number; costUsd: number | null; lines: string[]; cached: boolean }

function repeatData(run: ViewRun): RepeatData {
  const status = run.gradeError ? 'graded?' : run.pass ? 'pass' : run.ok ? 'fail' : 'error';
  return {
    repeat: run.repeat, status, text: run.ok ? excerpt(run.text ?? '', MAX_ANSWER_CHARS) : null, latencyMs: run.latencyMs,
    costUsd: run.costUsd ?? null, lines: checkLines([run]).map((l) => l.text), cached: run.cached === true,
  };
}

function columnHead(report: ViewReport, column: string): string {
  const t = report.targets.find((s) => columnOfTarget(s) === column);
  if (!t) return `<th scope="col">${escapeHtml(column)}</th>`;
  const interval = t.passInterval ? ` [${formatRate(t.passInterval[0])}, ${formatRate(t.passInterval[1])}]` : '';
  const score = t.score !== undefined ? ` · score ${t.score.toFixed(2)}` : '';
  return `<th scope="col" data-column="${escapeHtml(column)}">${escapeHtml(column)}<div class="note">pass ${formatRate(t.passRate)}${interval}${score}</div></th>`;
}

function caseHead(c: ViewCase, regressed: boolean): string {
  const last = c.messages.filter((m) => m.role === 'user').at(-1);
  const prompt = last ? messageText(last) : '';
  const flags = [
    c.disagree ? '<span class="flag" title="columns disagree">≠</span>' : '',
    regressed ? '<span class="tag regressed">regression</span>' : '',
    c.weight !== undefined && c.weight !== 1 ? `<span class="tag">weight ${c.weight}</span>` : '',
    c.variance !== undefined && c.variance > 0 ? `<span class="tag" title="variance of pass across repeats">var ${c.variance.toFixed(2)}</span>` : '',
  ].join('');
  const messages = c.messages.map((m) => `<div><strong>${escapeHtml(m.role)}</strong><pre>${escapeHtml(messageText(m))}</pre></div>`).join('');
  const expects = c.expectations.length > 0 ? c.expectations.join(', ') : 'none (any answer passes)';
  return `<th scope="row" class="case-head"><div class="case-id">${escapeHtml(c.id)}${flags}</div>`
    + `<div class="prompt">${escapeHtml(excerpt(prompt, 300))}</div>`
    + `<details class="messages"><summary>messages</summary>${messages}</details>`
    + `<div class="expects">expects: ${escapeHtml(expects)}</div></th>`;
}

const TOOLBAR = (counts: { all: number; failures: number; disagreements: number; regressions: number | null; fixes: number | null }) => {
  const radio = (value: string, label: string, n: number | null, checked = false) => n === null
    ? `<label class="off" title="no baseline in this report (run with --baseline)"><input type="radio" name="filter" value="${value}" disabled> ${label}</label>`
    : `<label><input type="radio" name="filter" value="${value}"${checked ? ' checked' : ''}> ${label} (${n})</label>`;
  return `<div class="toolbar" id="toolbar"><fieldset class="filters"><legend>show</legend>`
    + radio('all', 'all cases', counts.all, true) + radio('failures', 'failures only', counts.failures)
    + radio('disagreements', 'disagreements', counts.disagreements) + radio('regressions', 'regressions vs baseline', counts.regressions)
    + radio('fixes', 'fixes vs baseline', counts.fixes)
    + `</fieldset><input type="search" id="search" placeholder="search case id, prompt, answer" aria-label="search">`
    + `<span id="shown" class="note">${counts.all} of ${counts.all} cases</span></div>`;
};

/** Embeds data in the page's script: `<` escaped, so no answer can close the script element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * The side-by-side view: a row per case, a column per `column` (target, or target × prompt), each
 * cell the answer with its verdict; a toolbar of filters and search, and the repeats of every cell
 * as data for the page's script (only with `--repeat`: otherwise the cell already holds everything).
 */
export function sideBySide(report: ViewReport): { html: string; repeats: Record<string, RepeatData[]> } {
  const columns = columnsOf(report);
  const runsOf = runIndex(report);
  const regressions = pairSet(report.baseline?.regressions);
  const fixes = pairSet(report.baseline?.fixes);
  const repeats: Record<string, RepeatData[]> = {};
  let failures = 0;
  let disagreements = 0;
  const rows = report.cases.map((c, i) => {
    const byColumn = new Map(c.cells.map((cell) => [columnOfCell(cell), cell]));
    const failing = c.cells.some((cell) => cell.status !== 'pass');
    if (failing) failures++;
    if (c.disagree) disagreements++;
    const cells = columns.map((column, j) => {
      const cell = byColumn.get(column);
      if (!cell) return '<td class="cell missing"><p class="note">not run</p></td>';
      const runs = runsOf(c.id, column);
      const id = `c${i}-${j}`;
      if (report.repeat > 1) repeats[id] = runs.map(repeatData);
      return cellHtml(cell, runs, { id, caseId: c.id, column, regressed: regressions.has(c.id, column), fixed: fixes.has(c.id, column) }, report.repeat);
    }).join('');
    const data = `data-failing="${failing}" data-disagree="${c.disagree}" data-regressed="${regressions.cases.has(c.id)}" data-fixed="${fixes.cases.has(c.id)}"`;
    return `<tr class="case-row" id="case-${i}" ${data}>${caseHead(c, regressions.cases.has(c.id))}${cells}</tr>`;
  });
  const counts = {
    all: report.cases.length, failures, disagreements,
    regressions: report.baseline ? regressions.cases.size : null, fixes: report.baseline ? fixes.cases.size : null,
  };
  const head = `<thead><tr><th scope="col">case</th>${columns.map((col) => columnHead(report, col)).join('')}</tr></thead>`;
  const html = `${TOOLBAR(counts)}<div class="grid-wrap"><table class="sxs" style="--cols: ${columns.length}">${head}<tbody>${rows.join('')}</tbody></table></div>`
    + '<p class="note" id="none-shown" hidden>No case matches.</p>';
  return { html, repeats };
}
