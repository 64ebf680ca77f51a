#!/usr/bin/env python3
"""copy_spec.py SPEC COPY REALCODE: writes COPY, the check spec SPEC with its `source:`,
`candidate:` and the folders of a one-line `includes: [...]` made absolute under REALCODE.

The specs in specs/ name these paths relative to the folder of checkouts, since the copy
that `tiletrans check` reads sits in a temp folder beside nothing. Only these top-level
keys are touched, line by line, as tests/corpus/prove.sh's make_spec does; every other
line is copied as it is, so the copy is the same spec."""
import re
import sys


def absolute(line, real):
    line = re.sub(r"^(source|candidate):\s*([^\s#]+)",
                  lambda m: f"{m.group(1)}: {real}/{m.group(2)}", line)
    m = re.match(r"^includes:\s*\[([^\]]*)\](.*)$", line)
    if m:
        dirs = [d.strip() for d in m.group(1).split(",") if d.strip()]
        line = "includes: [" + ", ".join(f"{real}/{d}" for d in dirs) + "]" + m.group(2)
    return line


def main():
    src, dst, real = sys.argv[1:]
    lines = [absolute(l, real) for l in open(src).read().splitlines()]
    with open(dst, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
