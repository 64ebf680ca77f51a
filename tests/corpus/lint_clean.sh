#!/usr/bin/env bash
# A port is lint-clean (issue 11, point 5): `tiletrans rewrite --target hip` of every
# corpus/cuda/*/*.cu kernel, linted again with `lint --target hip`, has no warning and no
# error, for every kernel. A construct HIP lacks (category `unsupported`: inline PTX,
# wmma, cp.async) has no automatic port: rewrite leaves it in place behind a
# `/* tiletrans-ignore: RULE -- left unported: ... */` marker and exits 1. So the port
# is lint-clean and still never silent: lint of the port must list each of the source's
# unsupported findings as suppressed (summary.suppressed, one per construct, same rules),
# a second rewrite of the port must change nothing and still exit 1, and no port may
# carry a suppression that does no work.
# The renames-only candidates (<name>.hipify64.hip) of the kernels that corpus/README.md
# documents as broken by a renames-only port must NOT be lint-clean: the same rules that
# stay silent on tiletrans's ports object to them.
# Usage: lint_clean.sh PATH/TO/tiletrans
set -u
TT=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
export NO_COLOR=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-lintclean.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0 clean=0 marked=0

# a lint JSON file's warning/error findings other than `unsupported` ones (plus suppressions
# that do no work), its `unsupported` findings, its suppressed findings, and its
# `unsupported` findings of severity error (rewrite exits 1 while those are left)
summary() {
  python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
fs = doc["findings"]
rank = {"note": 0, "warning": 1, "error": 2}
other = [f for f in fs if f["category"] != "unsupported" and rank[f["severity"]] > 0]
sup = doc["summary"].get("suppressed", 0)
print(len(other) + len(doc.get("suppression_problems", [])), sum(f["category"] == "unsupported" for f in fs), sup,
      sum(f["category"] == "unsupported" and f["severity"] == "error" for f in fs))
for f in other: print("   ", f["range"]["start"]["line"], f["severity"], f["rule_id"], file=sys.stderr)
' "$1"
}

for src in corpus/cuda/*/*.cu; do
  name=$(basename "$src" .cu)
  "$TT" rewrite "$src" --target hip >"$tmp/$name.hip" 2>/dev/null
  rc=$?
  if [ $rc -gt 1 ]; then echo "FAIL: $name: rewrite exit $rc"; fail=$((fail + 1)); continue; fi
  "$TT" lint "$src" --target hip --format json --fail-on never >"$tmp/$name.src.json" 2>/dev/null
  "$TT" lint "$tmp/$name.hip" --target hip --format json --fail-on never >"$tmp/$name.port.json" 2>"$tmp/err"
  if [ $? != 0 ]; then echo "FAIL: $name: lint of the port: $(head -2 "$tmp/err")"; fail=$((fail + 1)); continue; fi
  read -r src_bad src_unsup _ src_unsup_err < <(summary "$tmp/$name.src.json" 2>/dev/null)
  read -r bad unsup sup _ < <(summary "$tmp/$name.port.json" 2>"$tmp/why")
  if [ "$bad" != 0 ] || [ "$unsup" != 0 ]; then
    echo "FAIL: $name: the port has $bad warning/error findings and $unsup unmarked unsupported ones:"; cat "$tmp/why"
    fail=$((fail + 1)); continue
  fi
  if [ "$src_unsup" != "$sup" ]; then
    echo "FAIL: $name: the source has $src_unsup unsupported construct(s), lint of the port lists $sup suppressed"
    fail=$((fail + 1)); continue
  fi
  clean=$((clean + 1))
  if [ "$src_unsup" != 0 ]; then
    want=0; [ "$src_unsup_err" != 0 ] && want=1  # exit 1 only for error findings left
    [ $rc = $want ] || { echo "FAIL: $name: rewrite left unported constructs ($src_unsup_err errors) but exited $rc, not $want"; fail=$((fail + 1)); }
    "$TT" rewrite "$tmp/$name.hip" --target hip >"$tmp/$name.again" 2>/dev/null
    rc2=$?
    cmp -s "$tmp/$name.hip" "$tmp/$name.again" || { echo "FAIL: $name: a second rewrite of the port changes it"; fail=$((fail + 1)); }
    [ $rc2 = $want ] || { echo "FAIL: $name: a second rewrite of the marked port exited $rc2, not $want"; fail=$((fail + 1)); }
    marked=$((marked + 1)); echo "marked: $name ($sup unported construct(s), listed as suppressed)"
  fi
done

# Renames-only candidates that prove.sh shows MISMATCH / RUN-FAIL must draw warnings or errors.
for cand in corpus/cuda/*/*.hipify64.hip; do
  name=$(basename "$cand" .hipify64.hip)
  case " attention_vec_padded rmsnorm_block " in *" $name "*) continue;; esac
  "$TT" lint "$cand" --target hip --format json --fail-on never >"$tmp/$name.h64.json" 2>/dev/null
  read -r bad unsup _ _ < <(summary "$tmp/$name.h64.json" 2>/dev/null)
  if [ "$bad" = 0 ] && [ "$unsup" = 0 ]; then echo "FAIL: $name.hipify64.hip (a broken renames-only port) is lint-clean"; fail=$((fail + 1)); fi
done

echo "lint-clean: $clean of $(ls corpus/cuda/*/*.cu | wc -l) ports clean ($marked with marked unported constructs), $fail failures"
[ $clean -ge 15 ] || { echo "FAIL: fewer than 15 clean ports: the corpus did not run"; exit 1; }
[ $fail = 0 ]
