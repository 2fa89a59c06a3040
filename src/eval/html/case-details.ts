import type { EvalReport } from '../report-types.js';
import { escapeHtml, excerpt } from './escape-html.js';
import { messageText } from '../../types.js';

const MAX_ANSWER_CHARS = 4000;

/** Every case in full, folded: its messages, its expectations, and each target's answer and failures. */
export function caseDetails(report: EvalReport): string {
  const firstErrors = new Map<string, string>();
  for (const r of report.runs) {
    const key = `${r.caseId}\u0000${r.target}`;
    if (r.error && !firstErrors.has(key)) firstErrors.set(key, r.error.message);
  }
  return report.cases.map((c, i) => {
    const messages = c.messages.map((m) => `<div><strong>${escapeHtml(m.role)}</strong><pre>${escapeHtml(messageText(m))}</pre></div>`).join('');
    const expects = c.expectations.length > 0 ? c.expectations.join(', ') : 'none (any answer passes)';
    const rows = c.cells.map((cell) => {
      const answer = cell.answer === undefined ? '<span class="note">no answer</span>' : `<pre>${escapeHtml(excerpt(cell.answer, MAX_ANSWER_CHARS))}</pre>`;
      const problems = [...cell.failures.map((f) => `✗ ${f}`), ...cell.errorKinds.map((k) => `error: ${k}`)];
      const error = firstErrors.get(`${c.id}\u0000${cell.target}`);
      const firstError = error ? `<div class="note">${escapeHtml(excerpt(error, 300))}</div>` : '';
      return `<tr><th scope="row">${escapeHtml(cell.target)}</th><td class="cell ${cell.status}">${cell.status} ${cell.passed}/${cell.runs}</td>`
        + `<td>${answer}${problems.map((p) => `<div>${escapeHtml(p)}</div>`).join('')}${firstError}</td></tr>`;
    }).join('');
    const groups = c.answerGroups.length > 1 ? `<p class="note">${c.answerGroups.length} different answers among the targets that answered.</p>` : '';
    return `<details class="case" id="case-${i}"${c.disagree ? ' open' : ''}><summary>${escapeHtml(c.id)}${c.disagree ? ' <span class="flag">≠ targets disagree</span>' : ''}</summary>`
      + `${messages}<p><strong>expects:</strong> ${escapeHtml(expects)}</p>${groups}`
      + `<table class="answers"><thead><tr><th>target</th><th>verdict</th><th>most common answer</th></tr></thead><tbody>${rows}</tbody></table></details>`;
  }).join('');
}
