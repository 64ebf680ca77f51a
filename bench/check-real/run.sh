#!/usr/bin/env bash
# bench/check-real/run.sh TILETRANS [REALCODE [PATTERN...]]
#
# PATTERNs (shell globs over REPO/NAME, e.g. 'ggml/*') run a subset of the specs.
# Checks real kernels as they stand: every spec in specs/<repo>/<name>.yaml names its
# source relative to a folder of checkouts (REALCODE, default /work/realcode; nothing is
# fetched). Each spec is copied into a temp folder with an absolute `source:` (and
# `candidate:`, when one is given), all of them go through one
# `tiletrans check --format json -j 2`, and the verdicts are printed beside the ones
# judged right in expect.tsv (spec, expected verdict, reason for anything but PASS).
#
# A source counts as "checked as it stands" when the unedited file's reference built and
# ran (the JSON's reference.build is "built"): the verdict is then about the kernel, not
# about a file the tool could not take.
# Exit status: 0 when every verdict is the expected one, 1 otherwise, 2 on bad usage.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tt=${1:?usage: run.sh TILETRANS [REALCODE]}
real=${2:-/work/realcode}
shift $(( $# < 2 ? $# : 2 ))
patterns=("$@")
[ -x "$tt" ] || { echo "run.sh: $tt is not executable" >&2; exit 2; }
[ -d "$real" ] || { echo "run.sh: $real is not a folder" >&2; exit 2; }
real=$(cd "$real" && pwd)
jobs=${CHECK_REAL_JOBS:-2}
export TILETRANS_CACHE_DIR=${TILETRANS_CACHE_DIR:-/tmp/ttcache-check-real}

tmp=$(mktemp -d /tmp/check-real.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The copies (copy_spec.py): the same spec with absolute paths; a spec whose source
# is not in REALCODE is reported as missing, not run.
specs=() missing=()
for s in "$here"/specs/*/*.yaml; do
  rel=${s#"$here/specs/"}
  if [ ${#patterns[@]} -gt 0 ]; then
    hit=0; for p in "${patterns[@]}"; do case ${rel%.yaml} in $p) hit=1;; esac; done
    [ $hit = 1 ] || continue
  fi
  src=$(sed -n 's/^source:[[:space:]]*\([^[:space:]#]*\).*/\1/p' "$s")
  if [ ! -f "$real/$src" ]; then missing+=("$rel"); continue; fi
  d="$tmp/specs/${rel%.yaml}"; mkdir -p "$d"
  python3 "$here/copy_spec.py" "$s" "$d/check.yaml" "$real"
  specs+=("$d/check.yaml")
done
[ ${#specs[@]} -gt 0 ] || { echo "run.sh: no spec's source is under $real" >&2; exit 2; }

start=$(date +%s)
set +e
nice timeout 3600 "$tt" check --format json -j "$jobs" "${specs[@]}" </dev/null >"$tmp/out.json" 2>"$tmp/err.txt"
rc=$?
set -e
wall=$(( $(date +%s) - start ))
if ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out.json" 2>/dev/null; then
  echo "run.sh: tiletrans check exited $rc without a JSON document; its stderr:" >&2
  tail -20 "$tmp/err.txt" >&2; exit 1
fi

python3 - "$tmp/out.json" "$here/expect.tsv" "$tmp/specs" "$wall" "$jobs" "${missing[@]}" <<'PY'
import csv, json, sys
out, expf, root, wall, jobs, missing = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:]
expect = {}
with open(expf, newline="") as f:
    for row in csv.reader(f, delimiter="\t"):
        if row and not row[0].startswith("#"):
            expect[row[0]] = (row[1], row[2] if len(row) > 2 else "")
doc = json.load(open(out))
rows, wrong, notes = [], [], []
for c in doc["checks"]:
    spec = c["spec"][len(root) + 1:].rsplit("/check.yaml", 1)[0]
    errs = [o.get("max_abs_err") for o in c.get("outputs") or [] if o.get("max_abs_err") is not None]
    err = "%.3g" % max(errs) if errs else "-"
    exp, why = expect.get(spec, ("?", "no entry in expect.tsv"))
    stood = (c.get("reference") or {}).get("build") in ("built", "cached")
    rows.append((spec, c["name"], c["status"], exp, err, "%.1f" % c.get("time_s", 0), stood))
    for l in (c.get("message") or "").splitlines():
        if "tt_sim: note:" in l or "tt_sim: warning:" in l or l.startswith("waived:"):
            notes.append((spec, l.strip()))
    if c["status"] != exp:
        wrong.append((spec, c["status"], exp, why, (c.get("message") or "").splitlines()[:2]))
w = max(len(r[0]) for r in rows)
print(f"{'spec':<{w}}  {'verdict':<15} {'expected':<15} {'max err':>9} {'time s':>7}")
for r in sorted(rows):
    print(f"{r[0]:<{w}}  {r[2]:<15} {r[3]:<15} {r[4]:>9} {r[5]:>7}")
tried = len(rows)
stood = sum(r[6] for r in rows)
byv = {}
for r in rows:
    byv[r[2]] = byv.get(r[2], 0) + 1
print()
print(f"tried {tried} kernels/sequences; checked as they stand (reference built, no edit) {stood}; "
      + ", ".join(f"{k} {v}" for k, v in sorted(byv.items())))
print(f"verdicts as expected: {tried - len(wrong)}/{tried}; wall {wall} s (-j {jobs})")
for spec, l in notes:
    print(f"note {spec}: {l[:200]}")
for m in missing:
    print(f"missing source (not run): {m}")
for spec, got, exp, why, msg in wrong:
    print(f"UNEXPECTED {spec}: {got}, expected {exp}" + (f" ({why})" if why else ""))
    for l in msg:
        print(f"    {l[:200]}")
sys.exit(1 if wrong else 0)
PY
