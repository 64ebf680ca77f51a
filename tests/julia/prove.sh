#!/bin/sh
# rewrite --target julia, proven: every corpus/cutile spec, with its `candidate:` and
# `reference:` taken out, is checked as `check` does then: tiletrans translates the
# cuTile Python source to cuTile.jl (logical layout, then --layout flipped) and the
# tile interpreter runs source and translation on the same bytes. Every one must PASS.
# No torch needed: the reference is the Python source itself.
# usage: prove.sh TILETRANS SOURCE_DIR
set -u
tt=$1
src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/tt-jlprove.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TILETRANS_CACHE_DIR="$work/cache" NO_COLOR=1
n=0
for spec in "$src"/corpus/cutile/*/check.yaml; do
  k=$(basename "$(dirname "$spec")")
  python3 - "$spec" "$work/$k.check.yaml" "$(cd "$(dirname "$spec")" && pwd)" <<'PY' || exit 2
import re, sys
spec, dst, kdir = sys.argv[1:]
out, block = [], False
for line in open(spec).read().splitlines():
    if re.match(r"^(candidate|reference):", line):
        block = line.rstrip().endswith(":")  # a `reference:` mapping continues indented
        continue
    if block and line.startswith(" "):
        continue
    block = False
    out.append(re.sub(r"^source:\s*(\S+)", lambda m: f"source: {kdir}/{m.group(1)}", line))
open(dst, "w").write("\n".join(out) + "\n")
PY
  n=$((n + 1))
done
fail=0
for layout in logical flipped; do
  timeout 900 "$tt" check --layout "$layout" --format json -j 2 --timeout 300 "$work"/*.check.yaml </dev/null >"$work/$layout.json" 2>"$work/$layout.err"
  python3 - "$work/$layout.json" "$layout" "$n" <<'PY' || fail=1
import json, sys
path, layout, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
checks = json.load(open(path))["checks"]
bad = [c for c in checks if c["status"] != "PASS"]
for c in checks:
    print(f"{'ok  ' if c['status'] == 'PASS' else 'FAIL'} {c['name']} ({layout}): {c['status']} {(c.get('message') or '').splitlines()[0] if c.get('message') else ''}")
if len(checks) != n:
    print(f"FAIL {layout}: {len(checks)} results for {n} specs")
sys.exit(1 if bad or len(checks) != n else 0)
PY
done
[ $fail = 0 ] && echo "all $n kernels translated and proven in both layouts"
exit $fail
