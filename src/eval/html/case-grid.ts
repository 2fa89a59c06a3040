import type { CaseCell, EvalReport } from '../report-types.js';
import { escapeHtml, excerpt } from './escape-html.js';
import { messageText } from '../../types.js';

const SYMBOL: Readonly<Record<CaseCell['status'], string>> = { pass: '✓', fail: '✗', error: '!', mixed: '~' };

/** The hover text of one cell: status, the answer, what failed. Escaped by the caller. */
export function cellDetails(cell: CaseCell): string {
  const lines = [`${cell.target}: ${cell.status} (${cell.passed}/${cell.runs} passed)`];
  if (cell.answer !== undefined) lines.push(`answer: ${excerpt(cell.answer, 300)}`);
  for (const f of cell.failures.slice(0, 5)) lines.push(`✗ ${f}`);
  if (cell.errorKinds.length > 0) lines.push(`errors: ${cell.errorKinds.join(', ')}`);
  return lines.join('\n');
}

function cellHtml(caseId: string, cell: CaseCell, repeat: number): string {
  const count = repeat > 1 || cell.status === 'mixed' ? ` ${cell.passed}/${cell.runs}` : '';
  const why = cell.status === 'error' ? ` ${cell.errorKinds.join(', ')}` : '';
  return `<td class="cell ${cell.status}" data-case="${escapeHtml(caseId)}" data-target="${escapeHtml(cell.target)}" title="${escapeHtml(cellDetails(cell))}">`
    + `<span class="sym">${SYMBOL[cell.status]}</span>${escapeHtml(count + why)}</td>`;
}

/** The case-by-target grid: a row per case, a cell per target; rows where targets disagree are flagged. */
export function caseGrid(report: EvalReport): string {
  const head = report.targets.map((t) => `<th scope="col" title="${escapeHtml(t.key)}">${escapeHtml(t.key)}</th>`).join('');
  const rows = report.cases.map((c, i) => {
    const last = c.messages.filter((m) => m.role === 'user').at(-1);
    const prompt = last ? messageText(last) : '';
    const flag = c.disagree ? '<span class="flag" title="targets disagree">≠</span>' : '';
    return `<tr class="${c.disagree ? 'disagree' : 'agree'}"><th scope="row" title="${escapeHtml(excerpt(prompt, 300))}"><a href="#case-${i}">${escapeHtml(c.id)}</a>${flag}</th>`
      + `${c.cells.map((cell) => cellHtml(c.id, cell, report.repeat)).join('')}</tr>`;
  });
  return `<div class="grid-wrap"><table class="grid"><thead><tr><th scope="col">case</th>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}
