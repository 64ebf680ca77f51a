#!/usr/bin/env bash
# Corpus golden tests for `lint --target hip` and `rewrite --target hip`.
# For every corpus/cuda/*/*.cu and corpus/near-miss/*.cu (NAME = file name without .cu):
#   lint     `tiletrans lint FILE --target hip --format json --fail-on never` (run from the
#            repo root, so paths are relative to it) equals expected/NAME.lint.json
#   rewrite  `tiletrans rewrite FILE --target hip` (stdout) equals expected/NAME.hip
#   fixes    the rewritten text differs from FILE only on lines that a finding's fix edits
#   idem     rewriting the rewritten text again changes nothing
#   clean    (near-miss only) no `error` findings; warnings and notes are counted and shown,
#            and warnings of category warp-size / mask-width / ballot-width (false positives
#            per corpus/README.md) are listed; STRICT_NEAR_MISS=1 makes those failures too.
# Usage: golden.sh PATH/TO/tiletrans [FILE...]     UPDATE_GOLDEN=1 rewrites expected/.
set -u
TT=$(realpath "$1"); shift
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
EXP="$HERE/expected"
cd "$ROOT" || exit 2
export NO_COLOR=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$EXP"

if [ $# -gt 0 ]; then files=("$@"); else files=(corpus/cuda/*/*.cu corpus/near-miss/*.cu); fi
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# golden NAME KIND ACTUAL: compare ACTUAL with expected/NAME.KIND (or write it).
golden() {
  local name=$1 kind=$2 actual=$3 want="$EXP/$1.$2"
  if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then cp "$actual" "$want"; fi
  if [ ! -f "$want" ]; then bad "$name: no expected/$name.$kind (run with UPDATE_GOLDEN=1)"; return; fi
  if diff -u "$want" "$actual" >"$tmp/diff"; then ok; else
    bad "$name: $kind differs from expected/$name.$kind ($(grep -c '^[-+][^-+]' "$tmp/diff") lines)"
    head -40 "$tmp/diff" | sed 's/^/    /'
  fi
}

for f in "${files[@]}"; do
  f=${f#./}
  name=$(basename "$f" .cu)
  case "$f" in corpus/near-miss/*) near=1;; *) near=0;; esac

  "$TT" lint "$f" --target hip --format json --fail-on never >"$tmp/$name.lint.json" 2>"$tmp/lint.err"
  rc=$?
  if [ $rc != 0 ]; then bad "$name: lint exit $rc: $(head -3 "$tmp/lint.err")"; fi
  golden "$name" lint.json "$tmp/$name.lint.json"

  "$TT" rewrite "$f" --target hip >"$tmp/$name.hip" 2>"$tmp/rewrite.err"
  rc=$?
  if [ $rc -gt 1 ]; then bad "$name: rewrite exit $rc: $(head -3 "$tmp/rewrite.err")"; fi
  golden "$name" hip "$tmp/$name.hip"

  # idempotence: the rewritten text, rewritten again, is unchanged
  mkdir -p "$tmp/again"
  cp "$tmp/$name.hip" "$tmp/again/$name.hip"
  # local headers beside the source (a vendor header that redefines names) travel along
  for h in "$(dirname "$f")"/*.h; do [ -f "$h" ] && cp "$h" "$tmp/again/"; done
  "$TT" rewrite "$tmp/again/$name.hip" --target hip >"$tmp/again/$name.out" 2>/dev/null
  if cmp -s "$tmp/again/$name.hip" "$tmp/again/$name.out"; then ok; else
    bad "$name: rewrite is not idempotent (rewriting the output changes it again)"
    diff -u "$tmp/again/$name.hip" "$tmp/again/$name.out" | head -20 | sed 's/^/    /'
  fi

  # the rewrite changes only lines that findings' fixes edit; near-miss: no errors
  python3 "$HERE/golden_check.py" "$f" "$tmp/$name.hip" "$tmp/$name.lint.json" "$near" "${STRICT_NEAR_MISS:-0}" >"$tmp/py.out"
  rc=$?
  while IFS= read -r line; do
    case "$line" in
      OK*) ok;;
      FAIL*) bad "$name: ${line#FAIL }";;
      *) echo "$line";;
    esac
  done <"$tmp/py.out"
  [ $rc = 0 ] || [ -s "$tmp/py.out" ] || bad "$name: checker script failed"
done

echo "$pass passed, $fail failed"
[ $fail = 0 ]
