#!/usr/bin/env python3
"""Entries of the Swift runtime's retain/release functions in a callgrind file written with
--dump-instr=yes --compress-strings=no --compress-pos=no (scripts/arc-witness): how many
times each function's first instruction ran. Call arcs would miss the tail jumps
(`jmp swift_release`) that Swift code and the runtime end many functions with."""
import sys

names = ["swift_retain", "swift_release", "swift_retain_n", "swift_release_n"]
costs = {n: {} for n in names}
fn = None
skip_next = False
with open(sys.argv[1]) as f:
    for line in f:
        if line.startswith("fn="):
            # A recursive entry (a release inside a deinit a release ran) is its own
            # context, `swift_release'2`: it counts the same.
            fn = line[3:].strip().split("'")[0]
            continue
        if line.startswith("calls="):
            skip_next = True  # the next line is the call's inclusive cost, not an instruction's own
            continue
        if skip_next:
            skip_next = False
            continue
        if fn in costs and line.startswith("0x"):
            parts = line.split()
            if len(parts) >= 3:  # instruction address, line, Ir (positions "instr line")
                address = int(parts[0], 16)
                costs[fn][address] = costs[fn].get(address, 0) + int(parts[2])
print(" ".join(str(costs[n][min(costs[n])]) if costs[n] else "0" for n in names))
