#!/usr/bin/env bash
# End-to-end CLI tests: golden outputs for every report format, exit codes,
# suppressions, configs, and the safety of rewrites (atomic, idempotent, no edits in
# code that failed to parse, read-only files left alone).
# Usage: run.sh PATH/TO/tiletrans      (UPDATE_GOLDEN=1 rewrites golden/ from the output)
set -u
TT=$(realpath "$1")
cd "$(dirname "$0")"
export NO_COLOR=1
pass=0 fail=0
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect_rc NAME RC CMD... — the command exits with RC.
expect_rc() {
  local name=$1 want=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ "$rc" = "$want" ]; then ok; else bad "$name: exit $rc, expected $want"; sed 's/^/    /' "$tmp/err" | head -5; fi
}

# golden NAME CMD... — stdout equals golden/NAME.
golden() {
  local name=$1; shift
  "$@" >"$tmp/golden.out" 2>/dev/null
  if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then cp "$tmp/golden.out" "golden/$name"; fi
  if diff -u "golden/$name" "$tmp/golden.out" >"$tmp/diff"; then ok; else bad "golden $name"; head -30 "$tmp/diff"; fi
}

R=(--rules rules)

# --- lint: formats ------------------------------------------------------------------
golden lint.txt "$TT" lint data/src data/broken.cu data/crlf.cu "${R[@]}"
golden lint.json "$TT" lint data/src data/broken.cu data/crlf.cu "${R[@]}" --format json
golden lint.sarif "$TT" lint data/src "${R[@]}" --format sarif
golden lint.github "$TT" lint data/src "${R[@]}" --format github
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["summary"]["findings"] == len(d["findings"]) > 0' golden/lint.json && ok || bad "lint.json is not consistent JSON"
python3 -c '
import json,sys
d=json.load(open(sys.argv[1])); run=d["runs"][0]
assert d["version"]=="2.1.0" and "$schema" in d
ids=[r["id"] for r in run["tool"]["driver"]["rules"]]
for res in run["results"]:
    assert ids[res["ruleIndex"]]==res["ruleId"]
    assert res["locations"][0]["physicalLocation"]["region"]["startLine"]>=1
assert any("fixes" in r for r in run["results"])
assert run["invocations"][0]["exitCode"]==1' golden/lint.sarif && ok || bad "lint.sarif is not valid SARIF as expected"

# --- lint: exit codes ---------------------------------------------------------------
expect_rc "findings at error" 1 "$TT" lint data/src "${R[@]}"
expect_rc "fail-on never" 0 "$TT" lint data/src "${R[@]}" --fail-on never
expect_rc "clean file" 0 "$TT" lint data/src/clean.cu "${R[@]}" --fail-on note
expect_rc "note fails at note" 1 "$TT" lint data/proj/k.cu "${R[@]}" --fail-on note
expect_rc "unknown flag" 2 "$TT" lint --no-such-flag
expect_rc "unknown format" 2 "$TT" lint data/src --format xml "${R[@]}"
expect_rc "unknown target" 2 "$TT" lint data/src --target cobol "${R[@]}"
expect_rc "bad fail-on" 2 "$TT" lint data/src --fail-on fatal "${R[@]}"
expect_rc "invalid rule file" 2 "$TT" lint data/src --rules bad-rules
grep -q "bad.yaml:4:11: key \`category\`: unknown category \`not-a-category\`" "$tmp/err" && ok || bad "rule error names file:line:col and key: $(cat "$tmp/err")"
expect_rc "unknown command" 2 "$TT" frobnicate
expect_rc "unreadable file" 3 "$TT" lint data/no-such-file.cu "${R[@]}"
expect_rc "explain unknown rule" 2 "$TT" explain no-such-rule
expect_rc "explain a rule" 0 "$TT" explain hip-ballot-32bit
for cmd in lint rewrite check rules explain test-rules; do
  expect_rc "$cmd --help" 0 "$TT" $cmd --help
done

# --- suppression, stdin, parallelism, config --------------------------------------------
"$TT" lint data/src/sub/suppressed.cu "${R[@]}" --format json >"$tmp/s.json"
python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["findings"]; assert [x["range"]["start"]["line"] for x in f]==[5], f' "$tmp/s.json" && ok || bad "suppression comments"
"$TT" lint - --language cuda "${R[@]}" <data/src/reduce.cu >"$tmp/stdin.txt"
grep -q '^<stdin>:9:27: error:' "$tmp/stdin.txt" && ok || bad "lint - reads standard input"
expect_rc "stdin without language" 3 "$TT" lint - "${R[@]}"
"$TT" lint data "${R[@]}" -j 1 --format json >"$tmp/j1.json"
"$TT" lint data "${R[@]}" -j 4 --format json >"$tmp/j4.json"
cmp -s "$tmp/j1.json" "$tmp/j4.json" && ok || bad "-j 4 output differs from -j 1"
golden config.txt "$TT" lint data/proj "${R[@]}" --fail-on never
grep -q "vendor" golden/config.txt && bad "config exclude ignored" || ok
grep -q "hip-warp-offset-16" golden/config.txt && bad "config severity off ignored" || ok

# --- rewrite ---------------------------------------------------------------------------
golden rewrite.diff "$TT" rewrite data/src data/broken.cu data/crlf.cu --target hip --diff "${R[@]}"
grep -q '^-__device__ float broken' golden/rewrite.diff && bad "edited inside a syntax error" || ok
grep -q '^+__device__ float ok(float v) { return __shfl_xor(v, 1, 32); }' golden/rewrite.diff && ok || bad "fixed the parseable function of broken.cu"
"$TT" rewrite data/broken.cu --target hip "${R[@]}" --format json >"$tmp/b.json"
python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["findings"]; assert sorted(x["fix"]["applied"] for x in f)==[False,True], f' "$tmp/b.json" && ok || bad "fix refused in syntax error reported as not applied"
expect_rc "rewrite needs a target" 2 "$TT" rewrite data/src --diff "${R[@]}"
expect_rc "rewrite one mode" 2 "$TT" rewrite data/src --diff --in-place --target hip "${R[@]}"
expect_rc "rewrite many files to stdout" 2 "$TT" rewrite data/src --target hip "${R[@]}"

# --out mirrors the tree, .cu becomes .hip, and a second rewrite changes nothing.
expect_rc "rewrite --out" 0 "$TT" rewrite data/src --target hip --out "$tmp/outdir" "${R[@]}"
[ -f "$tmp/outdir/reduce.hip" ] && [ -f "$tmp/outdir/clean.hip" ] && [ -f "$tmp/outdir/sub/suppressed.hip" ] && ok || bad "--out tree: $(cd "$tmp/outdir" && find . -type f)"
cmp -s "$tmp/outdir/clean.hip" data/src/clean.cu && ok || bad "--out copies unchanged files verbatim"
grep -q '"cudaFree" in a string and cudaFree in a comment' "$tmp/outdir/reduce.hip" && ok || bad "renames touched a comment or string"
grep -q 'unsigned long long votes' "$tmp/outdir/reduce.hip" && grep -q '__popcll(votes)' "$tmp/outdir/reduce.hip" && ok || bad "ballot widened"
"$TT" rewrite "$tmp/outdir" --target hip --diff "${R[@]}" >"$tmp/again.diff"
[ ! -s "$tmp/again.diff" ] && ok || { bad "rewriting twice changes something"; head "$tmp/again.diff"; }

# --in-place: atomic, keeps the mode, leaves unchanged files alone, CRLF kept.
mkdir -p "$tmp/inplace" && cp data/src/reduce.cu data/src/clean.cu data/crlf.cu "$tmp/inplace/"
chmod 0640 "$tmp/inplace/reduce.cu"
touch -d '2001-01-01 00:00:00' "$tmp/inplace/clean.cu"
before=$(stat -c %Y "$tmp/inplace/clean.cu")
expect_rc "rewrite --in-place" 0 "$TT" rewrite "$tmp/inplace" --target hip --in-place "${R[@]}"
[ "$(stat -c %a "$tmp/inplace/reduce.cu")" = 640 ] && ok || bad "in-place rewrite lost the file mode"
[ "$(stat -c %Y "$tmp/inplace/clean.cu")" = "$before" ] && ok || bad "unchanged file was rewritten (mtime changed)"
grep -q 'hipMalloc' "$tmp/inplace/reduce.cu" && ok || bad "in-place rewrite did not change the file"
[ -z "$(find "$tmp/inplace" -name '.tiletrans-*')" ] && ok || bad "temporary files left behind"
[ "$(grep -c $'\r$' "$tmp/inplace/crlf.cu")" = 3 ] && grep -q '__shfl_xor(v, 1, 32);'$'\r' "$tmp/inplace/crlf.cu" && ok || bad "CRLF line endings not kept"

# A read-only file is reported and left alone; the others are still rewritten.
mkdir -p "$tmp/ro" && cp data/src/reduce.cu "$tmp/ro/a.cu" && cp data/src/reduce.cu "$tmp/ro/b.cu" && chmod 0444 "$tmp/ro/a.cu"
expect_rc "read-only file" 3 "$TT" rewrite "$tmp/ro" --target hip --in-place "${R[@]}"
cmp -s "$tmp/ro/a.cu" data/src/reduce.cu && ok || bad "read-only file was modified"
grep -q 'not writable' "$tmp/out" && ok || bad "read-only file not reported: $(cat "$tmp/out")"
grep -q hipMalloc "$tmp/ro/b.cu" && ok || bad "writable file beside a read-only one not rewritten"

# Standard input to standard output.
"$TT" rewrite - --language cuda --target hip "${R[@]}" <data/src/sub/suppressed.cu >"$tmp/stdin.cu" 2>/dev/null
grep -c '__shfl_xor(v, 4, 32)' "$tmp/stdin.cu" | grep -q 1 && grep -q '__shfl_xor_sync(0xffffffff, v, 1)' "$tmp/stdin.cu" && ok || bad "rewrite - (suppressions respected)"

# --- the semantic layer (libclang): guards in another header, compile databases ---------
# ggml's layout: a header redefines __shfl_xor_sync for HIP under GGML_USE_HIP, so the
# 32-bit mask at the call is the header's business once the HIP-side define is known.
S="$tmp/sema/ggml-cuda"; mkdir -p "$S/vendors"
printf '#pragma once\n#if defined(GGML_USE_HIP)\n#define __shfl_xor_sync(mask, var, laneMask, width) __shfl_xor(var, laneMask, width)\n#endif\n' >"$S/vendors/hip.h"
printf '#if defined(GGML_USE_HIP)\n#include "vendors/hip.h"\n#endif\n__device__ float sum(float x) { return x + __shfl_xor_sync(0xffffffff, x, 1, 32); }\n' >"$S/common.cuh"
# mask_findings JSON: "N U" = findings of hip-sync-mask-32bit, how many are unconfirmed.
mask_findings() { python3 -c '
import json,sys; d=json.load(sys.stdin); f=[x for x in d["findings"] if x["rule_id"]=="hip-sync-mask-32bit"]
u=[x for x in f if "unconfirmed" in x]; assert d["summary"].get("unconfirmed",0)==sum("unconfirmed" in x for x in d["findings"])
print(len(f), len(u))'; }
off=$("$TT" lint "$S/common.cuh" --target hip --format json --no-sema | mask_findings)
[ "$off" = "1 1" ] && ok || bad "--no-sema: the finding is kept and marked unconfirmed (got $off)"
"$TT" lint "$S/common.cuh" --target hip --no-sema --fail-on never | grep -q '= not confirmed: the semantic layer is off' && ok || bad "text output names unconfirmed findings"
plain=$("$TT" lint "$S/common.cuh" --target hip --format json | mask_findings)
if "$TT" lint "$S/common.cuh" --target hip --format json | grep -q 'built without libclang'; then
  # A build without libclang: every semantic answer is unknown, and says so.
  [ "$plain" = "1 1" ] && ok || bad "without libclang: finding unconfirmed (got $plain)"
else
  [ "$plain" = "1 0" ] && ok || bad "no HIP-side define: the call is CUDA's, a confirmed finding (got $plain)"
  got=$("$TT" lint "$S/common.cuh" --target hip --format json --hip-define GGML_USE_HIP | mask_findings)
  [ "$got" = "0 0" ] && ok || bad "--hip-define GGML_USE_HIP: the header's redefinition is seen (got $got)"
  # ... or from .tiletrans.yaml's hip_defines.
  printf 'hip_defines: [GGML_USE_HIP]\n' >"$tmp/sema/.tiletrans.yaml"
  got=$("$TT" lint "$S/common.cuh" --target hip --format json | mask_findings)
  rm "$tmp/sema/.tiletrans.yaml"
  [ "$got" = "0 0" ] && ok || bad ".tiletrans.yaml hip_defines (got $got)"
  # The same from a HIP build's compile database, found upward from the file ...
  mkdir -p "$tmp/sema/build"
  printf '[{"directory": "%s", "file": "%s/other.cu", "command": "hipcc -DGGML_USE_HIP -c %s/other.cu"}]\n' \
    "$tmp/sema/build" "$S" "$S" >"$tmp/sema/build/compile_commands.json"
  got=$("$TT" lint "$S/common.cuh" --target hip --format json | mask_findings)
  [ "$got" = "0 0" ] && ok || bad "compile_commands.json found upward (got $got)"
  # ... or named; and a project include that is not found makes the answer unknown.
  got=$("$TT" lint "$S/common.cuh" --target hip --format json --compile-commands "$tmp/sema/build/compile_commands.json" | mask_findings)
  [ "$got" = "0 0" ] && ok || bad "--compile-commands (got $got)"
  rm "$tmp/sema/build/compile_commands.json"; mv "$S/vendors" "$S/elsewhere"
  got=$("$TT" lint "$S/common.cuh" --target hip --format json --hip-define GGML_USE_HIP | mask_findings)
  [ "$got" = "1 1" ] && ok || bad "missing project include: unconfirmed (got $got)"
  "$TT" lint "$S/common.cuh" --target hip --format json --hip-define GGML_USE_HIP | grep -q 'vendors/hip.h.*file not found.*pass -I' && ok || bad "the reason names the missing include"
  mkdir -p "$tmp/sema/inc" && mv "$S/elsewhere" "$tmp/sema/inc/vendors"
  got=$("$TT" lint "$S/common.cuh" --target hip --format json --hip-define GGML_USE_HIP -I "$tmp/sema/inc" | mask_findings)
  [ "$got" = "0 0" ] && ok || bad "-I finds the header (got $got)"
fi
expect_rc "--compile-commands must name compile_commands.json" 2 "$TT" lint "$S/common.cuh" --compile-commands "$S/common.cuh"
expect_rc "--compile-commands missing file" 2 "$TT" lint "$S/common.cuh" --compile-commands "$tmp/nope/compile_commands.json"

# --- rules, docs, test-rules -------------------------------------------------------------
"$TT" rules --format json "${R[@]}" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d["rules"])==4 and all("explain" in r for r in d["rules"])' && ok || bad "rules --format json"
(cd ../.. && "$TT" rules --format markdown --rules rules) >"$tmp/rules.md"
cmp -s "$tmp/rules.md" ../../docs/rules.md && ok || bad "docs/rules.md is stale: run tiletrans rules --format markdown --rules rules > docs/rules.md"
expect_rc "test-rules passes" 0 "$TT" test-rules rules
expect_rc "test-rules fails on a wrong example" 1 "$TT" test-rules failing-rules
grep -q "expected a finding, got none" "$tmp/out" && ok || bad "test-rules names the failing example"

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
