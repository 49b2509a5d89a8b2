/**
 * The page's own script, run in the browser after the inlined Chart.js: it draws the charts from
 * the JSON in #report-data (page-data.ts) and builds the changes table, filtered as the user types.
 * Plain ES2017 in a string, since it runs in the page, not in Node; the browser tests
 * (test/e2e/report-html*.test.ts) are what check it. Labels reach Chart.js as data and are drawn
 * on a canvas, never parsed as HTML.
 */
export const BROWSER_SCRIPT = String.raw`
(function () {
  'use strict';
  var body = document.body;
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var number = function (v) { return Number(v).toLocaleString('en-US'); };

  // Values at the end of each bar: the numbers are the point, the bars only their proportion.
  var barValues = {
    id: 'barValues',
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx;
      ctx.save();
      ctx.font = '600 13px system-ui, sans-serif';
      ctx.fillStyle = '#0f172a';
      ctx.textBaseline = 'middle';
      chart.getDatasetMeta(0).data.forEach(function (bar, i) {
        ctx.fillText(number(chart.data.datasets[0].data[i]), bar.x + 6, bar.y);
      });
      ctx.restore();
    }
  };

  function bars(id, series) {
    var canvas = document.getElementById(id);
    if (!canvas || !series) return;
    var max = Math.max.apply(null, series.values.concat([1]));
    new Chart(canvas, {
      type: 'bar',
      data: { labels: series.labels, datasets: [{ data: series.values, backgroundColor: series.colors, barPercentage: 0.85 }] },
      options: {
        indexAxis: 'y', animation: false, responsive: true, maintainAspectRatio: false,
        layout: { padding: { right: 80 } },
        plugins: { legend: { display: false }, tooltip: { callbacks: { label: function (c) { return number(c.raw); } } } },
        scales: {
          x: { beginAtZero: true, suggestedMax: max, ticks: { precision: 0, callback: function (v) { return number(v); } } },
          y: { ticks: { font: { size: 13 }, autoSkip: false } }
        }
      },
      plugins: [barValues]
    });
  }

  function progress(id, p) {
    var canvas = document.getElementById(id);
    if (!canvas || !p) return;
    var points = function (ys) { return ys.map(function (y, i) { return { x: p.t[i], y: y }; }); };
    var line = function (label, ys, color, axis, dash) {
      return { label: label, data: points(ys), borderColor: color, backgroundColor: color, yAxisID: axis,
        borderWidth: 2, pointRadius: 0, borderDash: dash || [] };
    };
    new Chart(canvas, {
      type: 'line',
      data: { datasets: [
        line('records read', p.read, '#64748b', 'records'),
        line('records loaded', p.loaded, '#16a34a', 'records'),
        line('requests', p.requests, '#2563eb', 'requests', [6, 4]),
        line('retries', p.retries, '#dc2626', 'requests', [2, 3])
      ].filter(function (d) { return d.data.length > 0; }) },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false, parsing: false, normalized: true,
        interaction: { mode: 'nearest', axis: 'x', intersect: false },
        plugins: { legend: { position: 'bottom' } },
        scales: {
          x: { type: 'linear', title: { display: true, text: 'seconds since start' } },
          records: { type: 'linear', position: 'left', beginAtZero: true, title: { display: true, text: 'records' } },
          requests: { type: 'linear', position: 'right', beginAtZero: true, grid: { drawOnChartArea: false },
            title: { display: true, text: 'requests' } }
        }
      }
    });
  }

  // Rows are made with textContent only: a value is never parsed as HTML.
  function cell(tr, text, className) {
    var td = document.createElement('td');
    if (className) td.className = className;
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }

  function changeRow(c) {
    var tr = document.createElement('tr');
    cell(tr, c.file, 'mono wrap');
    cell(tr, number(c.row), 'num');
    cell(tr, c.contactId, 'mono wrap');
    cell(tr, c.field, 'wrap');
    var values = cell(tr, '', 'value');
    var old = document.createElement('span');
    old.className = 'old';
    old.textContent = c.old;
    var now = document.createElement('span');
    now.className = 'new';
    now.textContent = c['new'];
    values.appendChild(old);
    values.appendChild(document.createTextNode(' \u2192 '));
    values.appendChild(now);
    return tr;
  }

  function changesTable(rows) {
    var section = document.getElementById('changes');
    var table = document.getElementById('changes-table');
    if (!section || !table || !rows) return;
    var limit = Number(section.getAttribute('data-rows-shown')) || 200;
    var input = document.getElementById('changes-search');
    var counter = document.getElementById('changes-count');
    var texts = rows.map(function (c) {
      return [c.file, c.row, c.contactId, c.field, c.old, c['new']].join('\u0000').toLowerCase();
    });
    var show = function () {
      var q = input.value.trim().toLowerCase();
      var tbody = document.createElement('tbody');
      var matches = 0;
      for (var i = 0; i < rows.length; i += 1) {
        if (q !== '' && texts[i].indexOf(q) === -1) continue;
        matches += 1;
        if (matches <= limit) tbody.appendChild(changeRow(rows[i]));
      }
      table.replaceChild(tbody, table.tBodies[0]);
      table.setAttribute('data-matches', String(matches));
      counter.textContent = (q === '' ? number(rows.length) + ' rows' : number(matches) + ' matching') +
        (matches > limit ? ', the first ' + number(limit) + ' shown' : '');
    };
    input.addEventListener('input', show);
    show();
  }

  try {
    if (typeof Chart === 'undefined') throw new Error('the chart library did not load');
    Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
    Chart.defaults.color = '#334155';
    bars('chart-outcome', data.outcome);
    bars('chart-issues-code', data.issuesByCode);
    bars('chart-issues-field', data.issuesByField);
    progress('chart-progress', data.progress);
    body.setAttribute('data-drawn-ms', String(Math.round(performance.now())));
    body.setAttribute('data-charts', 'drawn');
  } catch (error) {
    body.setAttribute('data-charts', 'failed');
    var note = document.getElementById('chart-error');
    if (note) { note.hidden = false; note.textContent = 'Charts could not be drawn: ' + error.message; }
  }
  changesTable(data.changes);
})();
`;
