/**
 * The page's one inline script: filters, search, repeats on demand and a diff of two picked cells.
 * Report text only ever reaches the page as `textContent` (never as markup); the data it reads is
 * the `REPEATS` object the renderer writes before it. Work per filter or keystroke is one pass over
 * the rows (500 cases × 6 columns stay quick); the search text of a row is read once, on first use.
 */
export const VIEWER_SCRIPT = `
(function () {
  'use strict';
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.case-row'));
  var shownNote = document.getElementById('shown');
  var noneNote = document.getElementById('none-shown');
  var search = document.getElementById('search');
  var filter = 'all';
  var haystacks = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function haystack(row) {
    var parts = [row.querySelector('.case-id').textContent, row.querySelector('.messages').textContent];
    var answers = row.querySelectorAll('.answer');
    for (var i = 0; i < answers.length; i++) parts.push(answers[i].textContent);
    var cells = row.querySelectorAll('td.cell[id]');
    for (var j = 0; j < cells.length; j++) {
      var reps = REPEATS[cells[j].id] || [];
      for (var k = 0; k < reps.length; k++) if (reps[k].text) parts.push(reps[k].text);
    }
    return parts.join('\\n').toLowerCase();
  }

  function matches(row) {
    var d = row.dataset;
    if (filter === 'failures' && d.failing !== 'true') return false;
    if (filter === 'disagreements' && d.disagree !== 'true') return false;
    if (filter === 'regressions' && d.regressed !== 'true') return false;
    if (filter === 'fixes' && d.fixed !== 'true') return false;
    var q = search.value.trim().toLowerCase();
    if (!q) return true;
    if (!haystacks) haystacks = rows.map(haystack);
    return haystacks[rows.indexOf(row)].indexOf(q) !== -1;
  }

  function apply() {
    var n = 0;
    for (var i = 0; i < rows.length; i++) {
      var show = matches(rows[i]);
      rows[i].hidden = !show;
      if (show) n++;
    }
    shownNote.textContent = n + ' of ' + rows.length + ' cases';
    noneNote.hidden = n > 0;
  }

  document.getElementById('toolbar').addEventListener('change', function (e) {
    if (e.target.name === 'filter') { filter = e.target.value; apply(); }
  });
  search.addEventListener('input', apply);

  // Repeats on demand: listed under the cell from REPEATS, each pickable for the diff.
  function repeatList(cell) {
    var list = el('ol', 'repeat-list');
    (REPEATS[cell.id] || []).forEach(function (r) {
      var item = el('li', 'repeat ' + r.status.replace('?', ''));
      item.appendChild(el('div', 'verdict', '#' + (r.repeat + 1) + ' ' + r.status + ' · ' + Math.round(r.latencyMs) + ' ms'
        + (r.costUsd === null ? '' : ' · $' + r.costUsd.toPrecision(2)) + (r.cached ? ' · cached' : '')));
      if (r.text !== null) item.appendChild(el('pre', 'answer', r.text));
      r.lines.forEach(function (line) { item.appendChild(el('div', 'line', line)); });
      var pick = el('button', 'pick', 'compare');
      pick.type = 'button';
      pick.dataset.label = cell.dataset.case + ' · ' + cell.dataset.column + ' #' + (r.repeat + 1);
      pick.dataset.text = r.text === null ? '' : r.text;
      item.appendChild(pick);
      list.appendChild(item);
    });
    return list;
  }

  // Diff of two picked answers, by words or by lines: common prefix and suffix cut, then an LCS.
  var picked = [];
  var diffMode = 'word';
  var panel = document.getElementById('diff');

  function tokens(text) {
    if (diffMode === 'word') return text.split(/(\\s+)/).filter(function (t) { return t !== ''; });
    var lines = text.split('\\n');
    return lines.map(function (l, i) { return i < lines.length - 1 ? l + '\\n' : l; }).filter(function (l) { return l !== ''; });
  }

  function diff(a, b) {
    var start = 0;
    while (start < a.length && start < b.length && a[start] === b[start]) start++;
    var endA = a.length, endB = b.length;
    while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
    var ops = a.slice(0, start).map(function (t) { return ['=', t]; });
    var x = a.slice(start, endA), y = b.slice(start, endB), n = x.length, m = y.length;
    if (n * m > 4000000) {
      x.forEach(function (t) { ops.push(['-', t]); });
      y.forEach(function (t) { ops.push(['+', t]); });
    } else {
      var w = m + 1, lcs = new Int32Array((n + 1) * w);
      for (var i = n - 1; i >= 0; i--) for (var j = m - 1; j >= 0; j--) {
        lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
      }
      var p = 0, q = 0;
      while (p < n && q < m) {
        if (x[p] === y[q]) { ops.push(['=', x[p]]); p++; q++; }
        else if (lcs[(p + 1) * w + q] >= lcs[p * w + q + 1]) ops.push(['-', x[p++]]);
        else ops.push(['+', y[q++]]);
      }
      while (p < n) ops.push(['-', x[p++]]);
      while (q < m) ops.push(['+', y[q++]]);
    }
    a.slice(endA).forEach(function (t) { ops.push(['=', t]); });
    return ops;
  }

  function pickText(button) {
    if (button.dataset.text !== undefined) return button.dataset.text;
    var answer = button.closest('td.cell').querySelector('.answer');
    return answer && answer.tagName === 'PRE' ? answer.textContent : '';
  }

  function pickLabel(button) {
    if (button.dataset.label) return button.dataset.label;
    var cell = button.closest('td.cell');
    return cell.dataset.case + ' · ' + cell.dataset.column;
  }

  function renderDiff() {
    panel.hidden = picked.length === 0;
    // Room under the last row, so the fixed panel never covers a cell.
    document.body.style.paddingBottom = panel.hidden ? '' : '45vh';
    var out = document.getElementById('diff-out');
    out.textContent = '';
    document.getElementById('diff-stats').textContent = '';
    var title = document.getElementById('diff-title');
    if (picked.length < 2) {
      title.textContent = picked.length === 1 ? 'Picked ' + pickLabel(picked[0]) + ': pick a second cell to compare.' : '';
      return;
    }
    title.textContent = pickLabel(picked[0]) + '  →  ' + pickLabel(picked[1]);
    var ops = diff(tokens(pickText(picked[0])), tokens(pickText(picked[1])));
    var removed = 0, added = 0, last = null;
    ops.forEach(function (op) {
      var counts = diffMode === 'line' || op[1].trim() !== '';
      if (op[0] === '-' && counts) removed++;
      if (op[0] === '+' && counts) added++;
      // Runs of one kind read as one span: "Yes, certainly." rather than three pieces.
      if (last && last.kind === op[0]) { last.node.textContent += op[1]; return; }
      last = { kind: op[0], node: out.appendChild(el(op[0] === '=' ? 'span' : op[0] === '-' ? 'del' : 'ins', null, op[1])) };
    });
    var unit = diffMode === 'line' ? ' lines' : ' words';
    document.getElementById('diff-stats').textContent = removed + unit + ' removed, ' + added + unit + ' added'
      + (removed + added === 0 ? ' (identical)' : '');
  }

  function togglePick(button) {
    var at = picked.indexOf(button);
    if (at !== -1) picked.splice(at, 1);
    else {
      picked.push(button);
      if (picked.length > 2) picked.shift().setAttribute('aria-pressed', 'false');
    }
    button.setAttribute('aria-pressed', at === -1 ? 'true' : 'false');
    renderDiff();
  }

  document.addEventListener('click', function (e) {
    var button = e.target.closest && e.target.closest('button');
    if (!button) return;
    if (button.classList.contains('pick')) togglePick(button);
    else if (button.classList.contains('more')) {
      var cell = button.closest('td.cell');
      var open = cell.querySelector('.repeat-list');
      if (open) open.remove();
      else cell.appendChild(repeatList(cell));
      button.setAttribute('aria-expanded', open ? 'false' : 'true');
    } else if (button.id === 'diff-clear') {
      picked.forEach(function (b) { b.setAttribute('aria-pressed', 'false'); });
      picked = [];
      renderDiff();
    }
  });
  panel.addEventListener('change', function (e) {
    if (e.target.name === 'diffmode') { diffMode = e.target.value; renderDiff(); }
  });
  apply();
})();
`;

/** The diff panel the script fills: fixed at the bottom of the window while two cells are picked. */
export const DIFF_PANEL = '<section id="diff" class="diff-panel" hidden aria-live="polite"><div class="diff-bar">'
  + '<strong>Diff</strong> <span id="diff-title"></span> <span id="diff-stats" class="note"></span>'
  + '<label><input type="radio" name="diffmode" value="word" checked> words</label>'
  + '<label><input type="radio" name="diffmode" value="line"> lines</label>'
  + '<button type="button" id="diff-clear">clear</button></div><pre id="diff-out"></pre></section>';
