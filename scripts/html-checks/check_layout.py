"""Checks the JSON scripts/html-checks/measure.js wrote into a page's DOM (read from
`chromium --dump-dom`): nothing wider than the window, every axis with round ticks in one
unit, no hyphenated name (a strategy) broken across two lines. Usage: check_layout.py DOM-FILE NAME"""
import html, json, re, sys
from decimal import Decimal

dom, name = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2]
# The last such element: the script's own text (in the dump) names it too.
found = re.findall(r'<pre id="profctl-check">(\{.*?)</pre>', dom, re.S)
assert found, f"{name}: the measuring script left no result (did the page's own script fail?)"
out = json.loads(html.unescape(found[-1]))
failures = []
if out["pageWidth"] > out["width"]:
    failures.append(f"the page is {out['pageWidth']} px wide in a {out['width']} px window")
for o in out["overflows"]:
    failures.append(f"overflows the {out['width']} px window: {o}")
for broken in out.get("brokenNames", []):
    failures.append(f"a name wraps onto two lines (at its hyphen): {broken}")

def parse(label):
    """'1,000 KiB' -> (Decimal('1000'), 'KiB'); '0' -> (0, None)."""
    m = re.fullmatch(r"(-?[\d,]+(?:\.\d+)?)(?: (\S+))?", label)
    assert m, f"not a number and a unit: {label!r}"
    return Decimal(m.group(1).replace(",", "")), m.group(2)

def round_125(x):
    """1, 2 or 5 times a power of ten."""
    if x <= 0:
        return False
    digits = x.normalize().as_tuple().digits
    return len(digits) == 1 and digits[0] in (1, 2, 5)

for axis in out["axes"]:
    labels = [t[0] for t in axis["ticks"]]
    where = f"{axis['chart']} ticks {labels}"
    if len(labels) < 2:
        failures.append(f"{where}: fewer than two ticks"); continue
    values = [parse(l) for l in labels]
    units = {u for v, u in values if v != 0}
    if len(units) > 1:
        failures.append(f"{where}: more than one unit {sorted(map(str, units))}")
    if axis["unit"] == "count" and any(v != v.to_integral_value() for v, _ in values):
        failures.append(f"{where}: a fractional count")
    numbers = [v for v, _ in values]
    if axis["log"]:
        bad = [n for n in numbers if not round_125(n)]
        if bad:
            failures.append(f"{where}: log ticks not 1, 2 or 5 times a power of ten: {bad}")
    else:
        steps = {b - a for a, b in zip(numbers, numbers[1:])}
        if len(steps) != 1 or not round_125(next(iter(steps))):
            failures.append(f"{where}: steps {sorted(steps)} are not one round step (1, 2 or 5 times a power of ten)")
        elif any((n / next(iter(steps))) != (n / next(iter(steps))).to_integral_value() for n in numbers):
            failures.append(f"{where}: a tick off the step's multiples")
for f in failures:
    print(f"{name}: {f}", file=sys.stderr)
print(f"{name}: {len(out['axes'])} axes with round ticks in one unit each, nothing wider than {out['width']} px, no name broken"
      if not failures else f"{name}: {len(failures)} problem(s)")
json.dump(out, open(sys.argv[1] + ".json", "w"))
sys.exit(1 if failures else 0)
