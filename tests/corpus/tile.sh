#!/usr/bin/env bash
# Tile corpus proofs (corpus/cutile, corpus/triton) with `tiletrans check`:
#   every <kernel>/check.yaml PASSes (its source and its candidate against the PyTorch
#   reference, or the candidate against the source);
#   every <kernel>/wrong/*.py, run as that spec's candidate, gets exactly the verdict its
#   first line names ("# pitfall: ...; expect: MISMATCH" or "...; expect: RUN-FAIL").
# Exit 77 (skipped) only when python3 cannot import torch: the references need it
# (scripts/install-deps.sh installs Debian's python3-torch).
# Usage: tile.sh PATH/TO/tiletrans
set -u
TT=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
PY=${TILETRANS_PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
if ! "$PY" -c 'import torch' 2>/dev/null; then
  echo "tile.sh: $PY cannot import torch; install python3-torch" >&2
  exit 77
fi
export NO_COLOR=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-tile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

verdict_of() { # spec -> the check's status
  "$TT" check "$1" --format json </dev/null 2>"$tmp/err" | python3 -c 'import json,sys; print(json.load(sys.stdin)["checks"][0]["status"])' 2>/dev/null
}

for spec in corpus/cutile/*/check.yaml corpus/triton/*/check.yaml; do
  [ -f "$spec" ] || continue
  n=$((n + 1))
  got=$(verdict_of "$spec")
  if [ "$got" = PASS ]; then echo "ok    PASS      $spec"
  else echo "FAIL  ${got:-error} (want PASS) $spec"; "$TT" check "$spec" </dev/null | tail -3; fail=1; fi
  dir=$(dirname "$spec")
  for wrong in "$dir"/wrong/*.py; do
    [ -f "$wrong" ] || continue
    n=$((n + 1))
    want=$(sed -n '1s/.*expect: *\([A-Z-]*\).*/\1/p' "$wrong")
    w="$tmp/$(basename "$dir")-$(basename "$wrong" .py).yaml"
    python3 - "$spec" "$w" "$ROOT/$dir" "$ROOT/$wrong" <<'PY'
import re, sys
src, dst, d, cand = sys.argv[1:]
out = []
for line in open(src).read().splitlines():
    m = re.match(r"^(source|candidate):\s*(\S+)", line)
    if m and m.group(1) == "source":
        line = f"source: {d}/{m.group(2)}"
    elif m:
        line = f"candidate: {cand}"
    out.append(line)
if not any(l.startswith("candidate:") for l in out):
    out.append(f"candidate: {cand}")
open(dst, "w").write("\n".join(out) + "\n")
PY
    got=$(verdict_of "$w")
    if [ -n "$want" ] && [ "$got" = "$want" ]; then echo "ok    $got  $wrong"
    else echo "FAIL  ${got:-error} (want ${want:-a verdict on line 1}) $wrong"; "$TT" check "$w" </dev/null | tail -3; fail=1; fi
  done
done
echo "tile corpus: $n checks, $([ $fail = 0 ] && echo all as expected || echo some NOT as expected)"
exit $fail
