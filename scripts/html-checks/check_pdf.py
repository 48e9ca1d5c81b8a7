"""A printed page must hold every table whole: each number of every table (a <td
class="n">) appears in the PDF's text at least as often as in the tables. A table clipped
at the paper's edge, or scrolled inside a box, loses whole columns of them.
Usage: check_pdf.py PAGE.html PDF-TEXT NAME"""
import collections, html, re, sys

page, text, name = open(sys.argv[1], encoding="utf-8").read(), open(sys.argv[2], encoding="utf-8").read(), sys.argv[3]
cells = collections.Counter(html.unescape(v) for v in re.findall(r'<td class="n">([^<]*)</td>', page))
tokens = collections.Counter(text.split())
missing = {v: n - tokens[v] for v, n in cells.items() if tokens[v] < n}
assert cells, f"{name}: no table numbers on the page"
if missing:
    shown = ", ".join(f"{v} ({n}x)" for v, n in sorted(missing.items(), key=lambda kv: -kv[1])[:12])
    print(f"{name}: {sum(missing.values())} of {sum(cells.values())} table numbers are not on the printed page: {shown}", file=sys.stderr)
    sys.exit(1)
print(f"{name}: all {sum(cells.values())} table numbers are on the printed page")
