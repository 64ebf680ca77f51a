#!/usr/bin/env bash
# Tile corpus proofs (corpus/cutile, corpus/triton) with `tiletrans check`:
#   every <kernel>/check.yaml PASSes (its source and its candidate against the PyTorch
#   reference, or the candidate against the source);
#   every cuTile.jl translation <kernel>/*.jl (`# layout: logical` or `flipped`), run
#   as that spec's candidate, PASSes;
#   every <kernel>/wrong/*.py and wrong/*.jl, run as that spec's candidate, gets exactly
#   the verdict its first line names ("# pitfall: ...; expect: MISMATCH", "RUN-FAIL", ...).
# All of them go to one `check -j2` run (the PyTorch child's start-up dominates each
# check, so two at a time halves the wall time), and each spec's verdict is read from
# the JSON by its spec path.
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

# want.tsv: spec path <TAB> wanted verdict <TAB> what it checks
: >"$tmp/want.tsv"
variant() { # spec candidate wanted -> a spec in $tmp with that candidate
  local spec=$1 cand=$2 want=$3 dir
  dir=$(dirname "$spec")
  local w="$tmp/$(basename "$dir")-$(basename "$(dirname "$cand")")-$(basename "$cand" | tr . _).yaml"
  python3 - "$spec" "$w" "$ROOT/$dir" "$ROOT/$cand" <<'PY'
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
  printf '%s\t%s\t%s\n' "$w" "$want" "$cand" >>"$tmp/want.tsv"
}

for spec in corpus/cutile/*/check.yaml corpus/triton/*/check.yaml; do
  [ -f "$spec" ] || continue
  printf '%s\t%s\t%s\n' "$ROOT/$spec" PASS "$spec" >>"$tmp/want.tsv"
  dir=$(dirname "$spec")
  for jl in "$dir"/*.jl; do
    [ -f "$jl" ] && variant "$spec" "$jl" PASS
  done
  for wrong in "$dir"/wrong/*.py "$dir"/wrong/*.jl; do
    [ -f "$wrong" ] || continue
    want=$(sed -n '1s/.*expect: *\([A-Z-]*\).*/\1/p' "$wrong")
    variant "$spec" "$wrong" "${want:-a verdict on line 1}"
  done
done

mapfile -t specs < <(cut -f1 "$tmp/want.tsv")
"$TT" check "${specs[@]}" --format json -j 2 --timeout 600 </dev/null >"$tmp/out.json" 2>"$tmp/err"
python3 - "$tmp/want.tsv" "$tmp/out.json" "$tmp/err" <<'PY'
import json, sys
want_path, out_path, err_path = sys.argv[1:]
try:
    checks = {c["spec"]: c for c in json.load(open(out_path))["checks"]}
except Exception as e:
    print(f"tile.sh: no JSON from tiletrans check ({e}):")
    print(open(err_path).read()[-3000:])
    sys.exit(1)
fail = n = 0
for line in open(want_path):
    spec, want, what = line.rstrip("\n").split("\t")
    n += 1
    c = checks.get(spec)
    got = c["status"] if c else "no result"
    if got == want:
        print(f"ok    {got:<10} {what}")
    else:
        fail = 1
        print(f"FAIL  {got} (want {want}) {what}")
        if c and c.get("message"):
            print(f"      {c['message'][:400]}")
print(f"tile corpus: {n} checks, {'all as expected' if not fail else 'some NOT as expected'}")
sys.exit(fail)
PY
