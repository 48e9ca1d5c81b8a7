import ProfilerModel

/// Allocation sites as icicle charts: one per (component, strategy, kind), the call tree
/// of the user's frames inside the measured region from the outermost at the top, each box
/// as wide as the bytes allocated under it. The SVG is complete without scripts (every box
/// has a tooltip, and it prints); the page's small inline script (``script``) adds what
/// speedscope and memray users expect: click a box to zoom into it (click the top box to
/// zoom out), a search box that highlights every frame whose name matches, and a tooltip
/// with the full name, location, bytes, allocations and share of the chart.
package enum SiteIcicle {
    static let width = 760.0, rowHeight = 18.0

    /// One chart per group of `rows`, in their order (at most `limit` groups).
    package static func charts(_ rows: [SiteRow], stacks: [Int64: SiteStack], limit: Int = 24) -> [String] {
        let groups = SiteCallTree.groups(rows.filter { $0.counts.requestedBytes > 0 }, stacks: stacks, limit: limit) {
            $0.requestedBytes
        }
        return groups.map { svg(title: $0.title, root: $0.root) }
    }

    static func depth(_ node: SiteCallTree) -> Int { 1 + (node.children.values.map(depth).max() ?? 0) }

    static func svg(title: String, root: SiteCallTree) -> String {
        let rows = depth(root)
        let height = 28 + Double(rows) * rowHeight
        let total = AxisScale.exact(Double(root.bytes), unit: "bytes")
        var out = "<svg class=\"chart icicle\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" data-total=\"\(root.bytes)\">"
        out += "<title>\(SVGChart.escape(title)): \(total) allocated</title>"
        out += "<text class=\"title\" x=\"0\" y=\"16\">\(SVGChart.escape(title)): \(total) allocated (width: requested bytes)</text>"
        func box(_ name: String, _ node: SiteCallTree, x: Double, w: Double, level: Int) {
            let y = 24 + Double(level) * rowHeight
            let label = level == 0 ? "all" : SiteName.short(name)
            var kind = ""
            if name == SiteFrame.cutMarker { kind = " cut" } else if SiteName.isMerged(name) { kind = " merged" }
            out += "<g class=\"f\(kind)\" data-x=\"\(fraction(x / width))\" data-w=\"\(fraction(w / width))\" data-d=\"\(level)\" "
                + "data-b=\"\(node.bytes)\" data-a=\"\(node.allocations)\" data-s=\"\(SVGChart.escape(label))\" data-n=\"\(SVGChart.escape(name))\" data-l=\"\(SVGChart.escape(node.location))\">"
            out += "<title>\(SVGChart.escape(name))\(node.location.isEmpty ? "" : " (" + SVGChart.escape(node.location) + ")"): "
                + "\(AxisScale.exact(Double(node.bytes), unit: "bytes")), \(node.allocations) allocations</title>"
            out += "<rect class=\"s\(level % 6)\" x=\(attr(x)) y=\(attr(y)) width=\(attr(max(w - 1, 0.5))) height=\(attr(rowHeight - 2)) rx=\"2\"/>"
            // About 6 px a character at 10 px: a label only where it fits, shortened.
            let fits = Int((w - 6) / 6)
            if fits >= 4 {
                let text = label.count <= fits ? label : String(label.prefix(fits - 1)) + "…"
                out += "<text class=\"label\" x=\(attr(x + 3)) y=\(attr(y + rowHeight - 6))>\(SVGChart.escape(text))</text>"
            }
            out += "</g>"
            var cursor = x
            for childName in node.order {
                guard let child = node.children[childName], node.bytes > 0 else { continue }
                let cw = w * Double(child.bytes) / Double(node.bytes)
                box(childName, child, x: cursor, w: cw, level: level + 1)
                cursor += cw
            }
        }
        box("all", root, x: 0, w: width, level: 0)
        return out + "</svg>"
    }

    static func attr(_ v: Double) -> String { "\"" + String(format: "%.1f", v) + "\"" }
    static func fraction(_ v: Double) -> String { String(format: "%.6f", v) }

    /// The styles of the boxes, the search box and the tooltip (both pages use them).
    package static let style = """
        svg.icicle g.f { cursor: pointer; } svg.icicle g.f:hover rect { stroke: var(--ink); stroke-width: 1; }
        svg.icicle .label { font-size: 10px; fill: #1d1d1f; pointer-events: none; }
        svg.icicle g.cut rect { fill: var(--grid); stroke-dasharray: 3 2; stroke: var(--muted); }
        svg.icicle g.cut .label, svg.icicle g.merged .label { font-style: italic; }
        svg.icicle g.merged rect { stroke: var(--muted); stroke-dasharray: 2 2; }
        svg.icicle g.ancestor rect { opacity: 0.55; }
        svg.icicle.searching g.f rect { opacity: 0.25; } svg.icicle.searching g.f.match rect { opacity: 1; stroke: #d70015; stroke-width: 1.5; }
        .icicle-tools { position: sticky; top: 0; background: var(--bg); padding: 0.4rem 0; z-index: 1; }
        .icicle-tools input { font: inherit; padding: 2px 6px; width: 18rem; max-width: 60%; }
        .icicle-tools span { color: var(--muted); margin-left: 0.6rem; }
        .icicle-tip { position: fixed; display: none; max-width: 36rem; padding: 6px 8px; font-size: 12px; line-height: 1.35;
          background: var(--bg); color: var(--ink); border: 1px solid var(--grid); border-radius: 4px; box-shadow: 0 2px 8px #0003;
          pointer-events: none; z-index: 2; overflow-wrap: anywhere; }
        @media print { .icicle-tools, .icicle-tip { display: none; } }
        """

    /// The search box above the charts.
    package static let tools = "<div class=\"icicle-tools\"><input type=\"search\" id=\"icicle-search\" placeholder=\"Search frames by name\" "
        + "aria-label=\"Search frames by name\"><span id=\"icicle-status\">Click a box to zoom in, the top box to zoom out.</span></div>\n"

    /// Zoom, search and tooltips for every `svg.icicle` of the page: inline, no network.
    /// Boxes are laid out from their data attributes (fractions of the chart), so zooming
    /// moves existing elements and creates labels only where they now fit.
    package static let script = """
        <script>
        (function () {
          var W = 760, NS = 'http://www.w3.org/2000/svg', charts = document.querySelectorAll('svg.icicle');
          var tip = document.createElement('div'); tip.className = 'icicle-tip'; document.body.appendChild(tip);
          function grouped(v) { return String(v).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ','); }
          function bytes(v) {
            var units = ['B', 'KiB', 'MiB', 'GiB'], i = 0, x = v;
            while (Math.abs(x) >= 1024 && i < 3) { x /= 1024; i++; }
            return grouped(v) + ' B' + (i ? ' (' + x.toFixed(1) + ' ' + units[i] + ')' : '');
          }
          function label(g, w, x) {
            var t = g.querySelector('text'), s = g.getAttribute('data-s'), fits = Math.floor((w - 6) / 6);
            var text = fits < 4 ? '' : (s.length <= fits ? s : s.slice(0, fits - 1) + '\\u2026');
            if (!t) { if (!text) return; t = document.createElementNS(NS, 'text'); t.setAttribute('class', 'label');
              t.setAttribute('y', (+g.querySelector('rect').getAttribute('y') + 12).toFixed(1)); g.appendChild(t); }
            t.setAttribute('x', (x + 3).toFixed(1)); t.textContent = text;
          }
          function zoom(svg, g) {
            var zx = +g.dataset.x, zw = +g.dataset.w, zd = +g.dataset.d, boxes = svg.querySelectorAll('g.f'), e = 1e-7;
            for (var i = 0; i < boxes.length; i++) {
              var b = boxes[i], x = +b.dataset.x, w = +b.dataset.w, d = +b.dataset.d, nx, nw, anc = false;
              if (d < zd) {
                if (x <= zx + e && x + w >= zx + zw - e) { nx = 0; nw = 1; anc = true; } else { b.style.display = 'none'; continue; }
              } else {
                nx = (x - zx) / zw; nw = w / zw;
                if (nx >= 1 - e || nx + nw <= e) { b.style.display = 'none'; continue; }
              }
              b.style.display = ''; b.classList.toggle('ancestor', anc);
              var r = b.querySelector('rect');
              r.setAttribute('x', (nx * W).toFixed(1)); r.setAttribute('width', Math.max(nw * W - 1, 0.5).toFixed(1));
              label(b, nw * W, nx * W);
            }
            svg.setAttribute('data-zoom', g.getAttribute('data-s'));
          }
          function search(q) {
            q = q.trim().toLowerCase(); var n = 0, inCharts = 0;
            for (var c = 0; c < charts.length; c++) {
              var svg = charts[c], hit = false, boxes = svg.querySelectorAll('g.f');
              svg.classList.toggle('searching', q.length > 0);
              for (var i = 0; i < boxes.length; i++) {
                var t = boxes[i].dataset, m = q.length > 0 && +t.d > 0 && (t.n.toLowerCase().indexOf(q) >= 0 || t.s.toLowerCase().indexOf(q) >= 0);
                boxes[i].classList.toggle('match', m); if (m) { n++; hit = true; }
              }
              if (hit) inCharts++;
            }
            var status = document.getElementById('icicle-status');
            if (status) status.textContent = q ? n + ' frame' + (n === 1 ? '' : 's') + ' match in ' + inCharts + ' chart' + (inCharts === 1 ? '' : 's') : 'Click a box to zoom in, the top box to zoom out.';
            return n;
          }
          for (var c = 0; c < charts.length; c++) {
            var boxes = charts[c].querySelectorAll('g.f');
            for (var i = 0; i < boxes.length; i++) {
              var t = boxes[i].querySelector('title'); if (t) t.remove();
            }
            charts[c].addEventListener('click', function (ev) {
              var g = ev.target.closest('g.f'); if (g) zoom(this, g);
            });
            charts[c].addEventListener('mousemove', function (ev) {
              var g = ev.target.closest('g.f'); if (!g) { tip.style.display = 'none'; return; }
              var d = g.dataset, total = +this.dataset.total, share = total > 0 ? (100 * d.b / total).toFixed(1) : '0';
              tip.textContent = '';
              var head = document.createElement('b'); head.textContent = d.n; tip.appendChild(head);
              var lines = [d.l ? 'at ' + d.l : '', bytes(+d.b) + ' allocated, ' + share + ' % of the chart', grouped(d.a) + ' allocations',
                g.classList.contains('merged') ? 'Merged by the compiler: identical functions share this code, named after one of them.' : '',
                g.classList.contains('cut') ? 'The stacks below were cut at the capture depth: record deeper stacks to see their outer frames.' : ''];
              lines.forEach(function (s) { if (s) { tip.appendChild(document.createElement('br')); tip.appendChild(document.createTextNode(s)); } });
              tip.style.display = 'block';
              tip.style.left = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 8) + 'px';
              tip.style.top = Math.min(ev.clientY + 14, window.innerHeight - tip.offsetHeight - 8) + 'px';
            });
            charts[c].addEventListener('mouseleave', function () { tip.style.display = 'none'; });
          }
          var input = document.getElementById('icicle-search');
          if (input) input.addEventListener('input', function () { search(input.value); });
          window.profctlIcicle = { zoom: zoom, search: search };
        })();
        </script>
        """

    /// A page of its own (`profctl sites --format html`): the charts, then the table.
    package static func page(_ rows: [SiteRow], stacks: [Int64: SiteStack], runID: String, table: ResultTable) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>profctl sites</title><style>"
        html += """
            :root { color-scheme: light dark; --bg: #fff; --ink: #1d1d1f; --muted: #6e6e73; --grid: #d2d2d7; }
            @media (prefers-color-scheme: dark) { :root { --bg: #1c1c1e; --ink: #f5f5f7; --muted: #a1a1a6; --grid: #3a3a3c; } }
            body { background: var(--bg); color: var(--ink); font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; }
            svg.chart { width: 100%; max-width: 1000px; display: block; height: auto; margin: 0.5rem 0 1rem; }
            svg .title { font-size: 13px; font-weight: 600; fill: var(--ink); } svg .label { font-size: 10px; fill: #1d1d1f; }
            .s0 { fill: #9ecbff; } .s1 { fill: #ffd08a; } .s2 { fill: #9be3a8; } .s3 { fill: #dcb3f5; } .s4 { fill: #ffa8ba; } .s5 { fill: #b3ecff; }
            """ + HTMLReport.tableStyle + style
        html += "</style></head><body>\n<h1>Allocation sites</h1>\n<p>run \(SVGChart.escape(runID))</p>\n"
        let charts = charts(rows, stacks: stacks)
        if !charts.isEmpty { html += tools }
        html += charts.joined(separator: "\n") + "\n"
        html += HTMLReport.table(table)
        return html + (charts.isEmpty ? "" : script) + "</body></html>\n"
    }
}
