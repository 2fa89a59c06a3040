import { formatMs, formatUsd } from '../format.js';
import type { CellStatus } from '../report-types.js';
import { cellNumbers, checkLines, shownRun } from './cell-facts.js';
import { escapeHtml, excerpt } from './escape-html.js';
import type { ViewCell, ViewRun } from './report-view.js';

/** Longer answers are cut in the cell (and in its diff); the JSON report keeps them whole. */
export const MAX_ANSWER_CHARS = 20_000;

const SYMBOL: Readonly<Record<CellStatus, string>> = { pass: '✓', fail: '✗', error: '!', mixed: '~' };

export interface CellPlace {
  id: string;
  caseId: string;
  column: string;
  regressed: boolean;
  fixed: boolean;
}

function facts(runs: readonly ViewRun[], repeat: number): string {
  const n = cellNumbers(runs);
  const parts = [
    `${repeat > 1 ? 'p50 ' : ''}${formatMs(n.latencyMs)}`,
    n.costUsd === null ? 'cost unknown' : `${formatUsd(n.costUsd)}${repeat > 1 ? '/run' : ''}`,
  ];
  if (n.graderCostUsd !== null) parts.push(`grader ${formatUsd(n.graderCostUsd)}`);
  return `<div class="facts"><span class="latency">${escapeHtml(parts[0]!)}</span> · <span class="cost">${escapeHtml(parts.slice(1).join(' · '))}</span></div>`;
}

/**
 * One case on one column: its verdict, the answer in full (the first answer equal to the most
 * common one), what failed and why (the judge's reason and score), latency and cost; a button to
 * pick it for a diff and, with repeats, one that lists every repeat (from the page's data).
 */
export function cellHtml(cell: ViewCell, runs: readonly ViewRun[], place: CellPlace, repeat: number): string {
  const shown = shownRun(cell, runs);
  const count = repeat > 1 || cell.status === 'mixed' ? ` ${cell.passed}/${cell.runs}` : '';
  const tags = [
    place.regressed ? '<span class="tag regressed" title="passed in the baseline, fails now">regressed</span>' : '',
    place.fixed ? '<span class="tag fixed" title="failed in the baseline, passes now">fixed</span>' : '',
    runs.some((r) => r.cached) ? '<span class="tag cached" title="answered from the disk cache: no request sent">cached</span>' : '',
  ].join('');
  const answer = shown ? `<pre class="answer">${escapeHtml(excerpt(shown.text ?? '', MAX_ANSWER_CHARS))}</pre>` : '<p class="answer none">no answer</p>';
  const lines = checkLines(runs).map((l) => `<li class="${l.kind}">${escapeHtml(l.text)}</li>`).join('');
  const more = repeat > 1 ? `<button type="button" class="more" aria-expanded="false">all ${runs.length} repeats</button>` : '';
  const attrs = `id="${place.id}" class="cell ${cell.status}" data-case="${escapeHtml(place.caseId)}" data-column="${escapeHtml(place.column)}" data-target="${escapeHtml(cell.target)}"`;
  return `<td ${attrs}><div class="verdict"><span class="sym">${SYMBOL[cell.status]}</span>${cell.status}${escapeHtml(count)}${tags}</div>`
    + `${answer}${lines ? `<ul class="checks">${lines}</ul>` : ''}${facts(runs, repeat)}`
    + `<div class="tools"><button type="button" class="pick" aria-pressed="false">compare</button>${more}</div></td>`;
}
