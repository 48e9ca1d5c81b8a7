#!/usr/bin/env python3
"""Reads a PNG (8-bit RGB or RGBA, non-interlaced) with the standard library only and
prints a JSON summary: size, distinct colours, the background colour, and how many
pixels have each of the report's series colours (or of the colours given after the PNG). Used by scripts/test-html-report."""
import json, struct, sys, zlib
from collections import Counter

def pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, "unsupported PNG"
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        previous = line
    return width, height, [tuple(row[x:x + 3]) for row in rows for x in range(0, stride, channels)]

width, height, colours = pixels(sys.argv[1])
counts = Counter(colours)
# The colours to count: given as hex arguments after the PNG, else the report's series.
names = sys.argv[2:] or ["0a84ff", "ff9f0a", "30b350"]
series = {name: tuple(int(name[i:i + 2], 16) for i in (0, 2, 4)) for name in names}
print(json.dumps({"width": width, "height": height, "distinct": len(counts),
                  "background": "%02x%02x%02x" % counts.most_common(1)[0][0],
                  "series": {name: counts[rgb] for name, rgb in series.items()}}))
