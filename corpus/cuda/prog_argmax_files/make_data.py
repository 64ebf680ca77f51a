#!/usr/bin/env python3
"""Writes rows.npy (64 x 100 float32, distinct values per row) and argmax.npy (the
expected index per row, int32) for this dir's check spec. Stdlib only."""
import pathlib, random, struct, sys

def npy(path, descr, shape, fmt, values):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else ""))
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    data = struct.pack("<%d%s" % (len(values), fmt), *values)
    pathlib.Path(path).write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data)

here = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent)
rng = random.Random(10)
rows, cols = 64, 100
x, idx = [], []
for r in range(rows):
    row = rng.sample(range(100000), cols)
    x += [v / 1000.0 for v in row]
    idx.append(max(range(cols), key=lambda c: row[c]))
npy(here / "rows.npy", "<f4", (rows, cols), "f", x)
npy(here / "argmax.npy", "<i4", (rows,), "i", idx)
