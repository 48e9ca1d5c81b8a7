// Injected by scripts/test-html-report into a copy of a page, run at the end of <body>:
// measures what Chromium laid out and writes it as JSON into <pre id="profctl-check">,
// which `chromium --dump-dom` then prints. With ?act=1 it also clicks and searches the
// flame graph (the icicles) the way a user would, through real DOM events.
(function () {
  var out = { width: document.documentElement.clientWidth, pageWidth: document.documentElement.scrollWidth,
              overflows: [], brokenNames: [], axes: [], timelines: [], icicle: null };
  function where(el) {
    var s = el.closest('section'); return (s ? s.getAttribute('data-scenario') + ': ' : '') + el.tagName.toLowerCase()
      + (el.querySelector && el.querySelector('title') ? ' "' + el.querySelector('title').textContent.slice(0, 60) + '"' : '');
  }
  var limit = out.width;
  document.querySelectorAll('table, svg.chart').forEach(function (el) {
    var r = el.getBoundingClientRect();
    if (r.right > limit + 0.5 || r.left < -0.5 || el.scrollWidth > el.clientWidth + 1 && el.tagName === 'TABLE')
      out.overflows.push({ what: where(el), left: r.left, right: r.right, scrollWidth: el.scrollWidth, clientWidth: el.clientWidth });
  });
  // A hyphenated name in a table cell (a strategy: lazy-realized) laid out on two lines.
  document.querySelectorAll('td').forEach(function (td) {
    var text = td.textContent;
    if (!/^\S+-\S+$/.test(text) || text.length > 32) return;
    var range = document.createRange(), lines = {};
    range.selectNodeContents(td);
    [].forEach.call(range.getClientRects(), function (r) { if (r.width > 0) lines[Math.round(r.top)] = true; });
    if (Object.keys(lines).length > 1) out.brokenNames.push(where(td) + ' "' + text + '"');
  });
  document.querySelectorAll('svg.chart:not(.icicle)').forEach(function (svg) {
    var ticks = [].map.call(svg.querySelectorAll('text.tick'), function (t) { return [t.textContent, +t.getAttribute('data-value')]; });
    out.axes.push({ chart: where(svg), unit: svg.getAttribute('data-unit'), log: svg.hasAttribute('data-log'), ticks: ticks });
    // A chart over numeric x values (whatif's curves) has a second axis, ticked the same way.
    var xticks = [].map.call(svg.querySelectorAll('text.xtick'), function (t) { return [t.textContent, +t.getAttribute('data-value')]; });
    if (xticks.length || svg.hasAttribute('data-xunit'))
      out.axes.push({ chart: where(svg) + ' (x)', unit: svg.getAttribute('data-xunit'), log: svg.hasAttribute('data-xlog'), ticks: xticks });
  });
  document.querySelectorAll('svg[data-chart="timeline"]').forEach(function (svg) {
    var s = svg.closest('section'), values = [].map.call(svg.querySelectorAll('circle[data-value]'), function (c) { return +c.getAttribute('data-value'); });
    out.timelines.push({ run: s ? s.getAttribute('data-run') : '', peak: Math.max.apply(null, values) });
  });
  var charts = document.querySelectorAll('svg.icicle');
  if (location.search.indexOf('act=1') >= 0 && charts.length) {
    // The chart with the most boxes: click its widest box that does not fill the width.
    var svg = [].slice.call(charts).sort(function (a, b) { return b.querySelectorAll('g.f').length - a.querySelectorAll('g.f').length; })[0];
    var boxes = [].slice.call(svg.querySelectorAll('g.f'));
    // Boxes neither above a box (its callers) nor under it (its callees): a click on it hides them.
    function beside(t) {
      var tx = +t.dataset.x, tw = +t.dataset.w, td = +t.dataset.d, eps = 1e-6;
      return boxes.filter(function (g) {
        var x = +g.dataset.x, w = +g.dataset.w, d = +g.dataset.d;
        return d < td ? !(x <= tx + eps && x + w >= tx + tw - eps) : (x >= tx + tw - eps || x + w <= tx + eps);
      }).length;
    }
    var partial = boxes.filter(function (g) { return +g.dataset.d >= 1 && +g.dataset.w < 0.9 && +g.dataset.w >= 0.02; })
      .sort(function (a, b) { return b.dataset.w - a.dataset.w; });
    var target = partial.filter(function (g) { return beside(g) > 0; })[0] || partial[0] || boxes[boxes.length - 1];
    var outside = beside(target);
    var before = +target.querySelector('rect').getAttribute('width');
    var t0 = performance.now();
    target.querySelector('rect').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    var zoomMs = performance.now() - t0;
    var after = +target.querySelector('rect').getAttribute('width');
    var hidden = boxes.filter(function (g) { return g.style.display === 'none'; }).length;
    var zoomed = svg.getAttribute('data-zoom');
    var query = target.dataset.s.split('.').pop().replace(/[^A-Za-z_].*$/, '') || target.dataset.s;
    var input = document.getElementById('icicle-search');
    t0 = performance.now();
    input.value = query; input.dispatchEvent(new Event('input', { bubbles: true }));
    var searchMs = performance.now() - t0;
    var expected = [].filter.call(document.querySelectorAll('svg.icicle g.f'), function (g) {
      return +g.dataset.d > 0 && (g.dataset.n.toLowerCase().indexOf(query.toLowerCase()) >= 0 || g.dataset.s.toLowerCase().indexOf(query.toLowerCase()) >= 0);
    }).length;
    // Zoom back out through the top box.
    boxes[0].querySelector('rect').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    out.icicle = { boxes: document.querySelectorAll('svg.icicle g.f').length, chartBoxes: boxes.length,
                   target: target.dataset.n, widthBefore: before, widthAfter: after, hiddenAfterZoom: hidden, outside: outside,
                   zoomed: zoomed, query: query, matches: document.querySelectorAll('svg.icicle g.f.match').length,
                   expectedMatches: expected, status: document.getElementById('icicle-status').textContent,
                   hiddenAfterReset: boxes.filter(function (g) { return g.style.display === 'none'; }).length,
                   zoomMs: zoomMs, searchMs: searchMs };
  }
  var pre = document.createElement('pre'); pre.id = 'profctl-check'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
