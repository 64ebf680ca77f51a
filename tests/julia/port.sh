#!/bin/sh
# rewrite --target julia golden tests: every corpus/cutile kernel translated in both
# layouts matches tests/julia/expected/<kernel>.<layout>.jl, starts with its `# layout:`
# line, is clean under `lint --target julia`, and is a fixed point (translating again
# gives the same bytes; `rewrite --target julia` of the Julia changes nothing). An
# unsupported construct is an error finding (exit 1) and stays in the output as a comment.
# usage: port.sh TILETRANS SOURCE_DIR [--update]
set -u
tt=$1
src=$2
update=${3:-}
exp=$src/tests/julia/expected
work=$(mktemp -d "${TMPDIR:-/tmp}/tt-port.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
n=0
# One run per layout over the whole corpus folder (the Triton candidates beside the
# kernels translate too, with findings: only <k>/<k>.jl is compared), then a second
# run for the fixed point, then one lint and one in-place rewrite over every output.
for layout in logical flipped; do
  timeout 300 "$tt" rewrite --target julia --layout "$layout" --out "$work/$layout" "$src/corpus/cutile" </dev/null >/dev/null 2>&1
  timeout 300 "$tt" rewrite --target julia --layout "$layout" --out "$work/again-$layout" "$src/corpus/cutile" </dev/null >/dev/null 2>&1
done
mkdir -p "$work/all"
for dir in "$src"/corpus/cutile/*/; do
  k=$(basename "$dir")
  [ -f "$dir/$k.py" ] || continue
  for layout in logical flipped; do
    n=$((n + 1))
    out=$work/$layout/$k/$k.jl
    [ -f "$out" ] || { echo "FAIL $k $layout: not translated"; fail=1; continue; }
    if [ "$update" = --update ]; then cp "$out" "$exp/$k.$layout.jl"; fi
    if ! cmp -s "$out" "$exp/$k.$layout.jl"; then
      echo "FAIL $k $layout: differs from the golden:"; diff -u "$exp/$k.$layout.jl" "$out" | head -20; fail=1
    fi
    if [ "$(head -n 1 "$out")" != "# layout: $layout" ]; then echo "FAIL $k $layout: first line is not '# layout: $layout'"; fail=1; fi
    cmp -s "$out" "$work/again-$layout/$k/$k.jl" || { echo "FAIL $k $layout: a second translation differs"; fail=1; }
    cp "$out" "$work/all/$k.$layout.jl"
  done
done
[ "$n" -ge 22 ] || { echo "FAIL: only $n translations (expected 11 kernels x 2 layouts)"; fail=1; }
if ! timeout 300 "$tt" lint --target julia "$work/all" </dev/null >"$work/lint" 2>&1; then
  echo "FAIL lint --target julia of the translations:"; cat "$work/lint"; fail=1
fi
cp -r "$work/all" "$work/fixed"
timeout 300 "$tt" rewrite --target julia --in-place "$work/fixed" </dev/null >/dev/null 2>&1
for f in "$work"/all/*.jl; do
  cmp -s "$f" "$work/fixed/$(basename "$f")" || { echo "FAIL $(basename "$f"): rewrite of the Julia changed it"; fail=1; }
done

# An unsupported construct: a finding, exit 1, and its text kept as a comment.
cat >"$work/bad.py" <<'PY'
import cuda.tile as ct

@ct.kernel
def k(x, y, T: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(T,), padding_mode=ct.PaddingMode.ZERO)
    u = ct.pack_to_bytes(t)
    ct.store(y, index=(ct.bid(0),), tile=t)
PY
timeout 60 "$tt" rewrite --target julia "$work/bad.py" </dev/null >"$work/bad.jl" 2>"$work/bad.err"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL unsupported: exit $rc, expected 1"; fail=1; }
grep -q 'bad.py:6:9: error: .*pack_to_bytes.* \[port-unsupported\]' "$work/bad.err" || { echo "FAIL unsupported: no finding on 6:9:"; cat "$work/bad.err"; fail=1; }
grep -q '^    # u = ct.pack_to_bytes(t)$' "$work/bad.jl" || { echo "FAIL unsupported: the statement is not kept as a comment"; cat "$work/bad.jl"; fail=1; }
grep -q '^    ct.store(y; index=(ct.bid(1),), tile=t)$' "$work/bad.jl" || { echo "FAIL unsupported: the rest is not translated"; fail=1; }

# A file that does not parse is not translated (exit 3, no output).
printf 'import cuda.tile as ct\ndef k(:\n' >"$work/broken.py"
timeout 60 "$tt" rewrite --target julia "$work/broken.py" </dev/null >"$work/broken.out" 2>"$work/broken.err"
rc=$?
[ $rc -eq 3 ] && [ ! -s "$work/broken.out" ] && grep -q 'broken.py:2:' "$work/broken.err" ||
  { echo "FAIL syntax error: exit $rc, $(cat "$work/broken.err")"; fail=1; }

# --out writes x.jl; --layout is refused where it does not apply.
timeout 60 "$tt" rewrite --target julia --layout flipped --out "$work/o" "$src/corpus/cutile/matmul/matmul.py" </dev/null 2>/dev/null
cmp -s "$work/o/matmul.jl" "$exp/matmul.flipped.jl" || { echo "FAIL --out: $work/o/matmul.jl"; fail=1; }
timeout 60 "$tt" rewrite --target julia --layout diagonal "$src/corpus/cutile/matmul/matmul.py" </dev/null >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL --layout diagonal is not a usage error"; fail=1; }

# The API map is exposed to agents.
timeout 60 "$tt" rules --target julia --format json </dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
m = d["api_map"]
assert m["functions"]["mma"]["julia"] == "muladd", m["functions"]["mma"]
assert m["padding_modes"]["NEG_INF"] == "NegInf"
assert any(r["id"] == "cutile-padding-undefined" for r in d["rules"])
' || { echo "FAIL rules --target julia --format json: no api_map"; fail=1; }

[ $fail -eq 0 ] && echo "port: $n translations match their goldens, lint-clean and fixed points"
exit $fail
