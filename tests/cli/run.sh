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
# SARIF URIs are relative to --srcroot; the root's own absolute URI is made neutral.
sarif_neutral() { "$@" | sed "s|\"file://$(realpath ..)/\"|\"file:///SRCROOT/\"|"; }
golden lint.sarif sarif_neutral "$TT" lint data/src "${R[@]}" --format sarif --srcroot ..
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
grep -q "a.cu: error: not writable, left unchanged" "$tmp/err" && ok || bad "read-only file not reported on stderr: $(cat "$tmp/err")"
grep -q hipMalloc "$tmp/ro/b.cu" && ok || bad "writable file beside a read-only one not rewritten"

# Standard input to standard output.
"$TT" rewrite - --language cuda --target hip "${R[@]}" <data/src/sub/suppressed.cu >"$tmp/stdin.cu" 2>/dev/null
grep -c '__shfl_xor(v, 4, 32)' "$tmp/stdin.cu" | grep -q 1 && grep -q '__shfl_xor_sync(0xffffffff, v, 1)' "$tmp/stdin.cu" && ok || bad "rewrite - (suppressions respected)"

# --- the semantic layer (libclang): guards in another header, compile databases ---------
# ggml's layout, with a project macro the rulebook does not know: a header redefines __shfl_xor_sync for HIP under PROJ_USE_HIP, so the
# 32-bit mask at the call is the header's business once the HIP-side define is known.
S="$tmp/sema/ggml-cuda"; mkdir -p "$S/vendors"
printf '#pragma once\n#if defined(PROJ_USE_HIP)\n#define __shfl_xor_sync(mask, var, laneMask, width) __shfl_xor(var, laneMask, width)\n#endif\n' >"$S/vendors/hip.h"
printf '#if defined(PROJ_USE_HIP)\n#include "vendors/hip.h"\n#endif\n__device__ float sum(float x) { return x + __shfl_xor_sync(0xffffffff, x, 1, 32); }\n' >"$S/common.cuh"
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
  got=$("$TT" lint "$S/common.cuh" --target hip --format json --hip-define PROJ_USE_HIP | mask_findings)
  [ "$got" = "0 0" ] && ok || bad "--hip-define PROJ_USE_HIP: the header's redefinition is seen (got $got)"
  # ... or from .tiletrans.yaml's hip_defines.
  printf 'hip_defines: [PROJ_USE_HIP]\n' >"$tmp/sema/.tiletrans.yaml"
  got=$("$TT" lint "$S/common.cuh" --target hip --format json | mask_findings)
  rm "$tmp/sema/.tiletrans.yaml"
  [ "$got" = "0 0" ] && ok || bad ".tiletrans.yaml hip_defines (got $got)"
  # The same from a HIP build's compile database, found upward from the file ...
  mkdir -p "$tmp/sema/build"
  printf '[{"directory": "%s", "file": "%s/other.cu", "command": "hipcc -DPROJ_USE_HIP -c %s/other.cu"}]\n' \
    "$tmp/sema/build" "$S" "$S" >"$tmp/sema/build/compile_commands.json"
  got=$("$TT" lint "$S/common.cuh" --target hip --format json | mask_findings)
  [ "$got" = "0 0" ] && ok || bad "compile_commands.json found upward (got $got)"
  # ... or named; and a project include that is not found makes the answer unknown.
  got=$("$TT" lint "$S/common.cuh" --target hip --format json --compile-commands "$tmp/sema/build/compile_commands.json" | mask_findings)
  [ "$got" = "0 0" ] && ok || bad "--compile-commands (got $got)"
  rm "$tmp/sema/build/compile_commands.json"; mv "$S/vendors" "$S/elsewhere"
  got=$("$TT" lint "$S/common.cuh" --target hip --format json --hip-define PROJ_USE_HIP | mask_findings)
  [ "$got" = "1 1" ] && ok || bad "missing project include: unconfirmed (got $got)"
  "$TT" lint "$S/common.cuh" --target hip --format json --hip-define PROJ_USE_HIP | grep -q 'vendors/hip.h.*file not found.*pass -I' && ok || bad "the reason names the missing include"
  mkdir -p "$tmp/sema/inc" && mv "$S/elsewhere" "$tmp/sema/inc/vendors"
  got=$("$TT" lint "$S/common.cuh" --target hip --format json --hip-define PROJ_USE_HIP -I "$tmp/sema/inc" | mask_findings)
  [ "$got" = "0 0" ] && ok || bad "-I finds the header (got $got)"
fi
expect_rc "--compile-commands must name compile_commands.json" 2 "$TT" lint "$S/common.cuh" --compile-commands "$S/common.cuh"
expect_rc "--compile-commands missing file" 2 "$TT" lint "$S/common.cuh" --compile-commands "$tmp/nope/compile_commands.json"

# A 3,000-term sum nests past the matcher's bound on open matches: every finding is still
# there, and stderr says the file's findings may be incomplete (src/rules/match.c).
python3 -c 'print("__global__ void k(float *x, int lane) {\n  x[0] = x[0]" + "".join(" + x[%d] * (lane %% 32)" % i for i in range(1, 3000)) + ";\n}")' >"$tmp/longsum.cu"
"$TT" lint --target hip --format json "$tmp/longsum.cu" >"$tmp/longsum.json" 2>"$tmp/longsum.err" </dev/null
grep -q "longsum.cu: warning: code nested deeper than the matcher follows" "$tmp/longsum.err" &&
  python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["findings"]; assert sum(x["rule_id"]=="hip-lane-id-32" for x in f)==2999, len(f)' "$tmp/longsum.json" &&
  ok || bad "a sum past the match bound: all 2999 findings and a warning on stderr ($(head -c 300 "$tmp/longsum.err"))"

# --- rules, docs, test-rules -------------------------------------------------------------
"$TT" rules --format json "${R[@]}" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d["rules"])==4 and all("explain" in r for r in d["rules"])' && ok || bad "rules --format json"
(cd ../.. && "$TT" rules --format markdown --rules rules) >"$tmp/rules.md"
cmp -s "$tmp/rules.md" ../../docs/rules.md && ok || bad "docs/rules.md is stale: run tiletrans rules --format markdown --rules rules > docs/rules.md"
expect_rc "test-rules passes" 0 "$TT" test-rules rules
expect_rc "test-rules fails on a wrong example" 1 "$TT" test-rules failing-rules
grep -q "expected a finding, got none" "$tmp/out" && ok || bad "test-rules names the failing example"


# --- SARIF against the official schema (python3-jsonschema with the format checker) ----
PY=/usr/bin/python3
./sarif-validate.py golden/lint.sarif >"$tmp/v" 2>&1 && ok || { bad "golden lint.sarif fails the SARIF 2.1.0 schema"; head "$tmp/v"; }
mkdir -p "$tmp/sarif/dir with space" && cp data/src/sub/suppressed.cu "$tmp/sarif/dir with space/ké%.cu"
(cd "$tmp/sarif" && "$TT" lint . "$OLDPWD/data/src/reduce.cu" --rules "$OLDPWD/rules" --format sarif >"$tmp/full.sarif")
(cd ../.. && "$TT" lint corpus/cuda tests/cli/data tests/cli/no-such.cu --format sarif >"$tmp/rulebook.sarif")
./sarif-validate.py "$tmp/full.sarif" "$tmp/rulebook.sarif" >"$tmp/v" 2>&1 && ok || { bad "SARIF of the whole rulebook, odd paths and errors fails the schema"; head "$tmp/v"; }
$PY - "$tmp/full.sarif" "$tmp/sarif" <<'PYEOF' && ok || bad "SARIF URIs, SRCROOT, fingerprints, suppressions, names"
import json, sys, os, urllib.parse
d = json.load(open(sys.argv[1])); run = d["runs"][0]
root = run["originalUriBaseIds"]["SRCROOT"]["uri"]
assert root == "file://" + urllib.parse.quote(os.path.realpath(sys.argv[2])) + "/", root
locs = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
assert {"uri": "dir%20with%20space/k%C3%A9%25.cu", "uriBaseId": "SRCROOT"} in locs, locs
assert any(l["uri"].startswith("file:///") and "uriBaseId" not in l for l in locs), "outside the root: absolute"
sup = [r for r in run["results"] if "suppressions" in r]
assert len(sup) == 2 and all(s["suppressions"][0]["kind"] == "inSource" for s in sup), sup
prints = [r["partialFingerprints"]["tiletrans/v1"] for r in run["results"]]
assert len(set(prints)) == len(prints), "fingerprints are unique"
for rule in run["tool"]["driver"]["rules"]:
    assert rule["name"] != rule["id"]
PYEOF
"$TT" lint data/src "${R[@]}" --format sarif >"$tmp/gitroot.sarif"
$PY -c 'import json,sys; u=json.load(open(sys.argv[1]))["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]; assert u.startswith("tests/cli/data/src/"), u' "$tmp/gitroot.sarif" && ok || bad "default --srcroot is the git top level"
expect_rc "srcroot not a folder" 2 "$TT" lint data/src "${R[@]}" --format sarif --srcroot data/src/reduce.cu

# --- GitHub annotations: summary line and cap ------------------------------------------
"$TT" lint data/src "${R[@]}" --format github --max-annotations 1 >"$tmp/gh"
[ "$(grep -c '^::error ' "$tmp/gh")" = 1 ] && [ "$(grep -c '^::notice ' "$tmp/gh")" = 1 ] && ok || bad "--max-annotations 1: $(cat "$tmp/gh")"
grep -q '^tiletrans: 10 findings (4 errors, 1 warning, 5 notes) in 2 of 3 files; 9 not annotated (--max-annotations 1: 3 errors, 2 warnings, 4 notices)$' "$tmp/gh" && ok || bad "github summary line: $(tail -1 "$tmp/gh")"
expect_rc "bad --max-annotations" 2 "$TT" lint data/src "${R[@]}" --format github --max-annotations x

# --- CLI conventions ------------------------------------------------------------------------
"$TT" lint data/src/reduce.cu "${R[@]}" --color always >"$tmp/c" ; grep -q $'\033\[' "$tmp/c" && ok || bad "--color always"
NO_COLOR= "$TT" lint data/src/reduce.cu "${R[@]}" --color never >"$tmp/c"; grep -q $'\033\[' "$tmp/c" && bad "--color never" || ok
expect_rc "bad --color" 2 "$TT" lint data/src "${R[@]}" --color sometimes
"$TT" lint data/src "${R[@]}" --quiet >"$tmp/q"
grep -q ': error:' "$tmp/q" && ! grep -q ': note:' "$tmp/q" && ! grep -q 'findings (' "$tmp/q" && ok || bad "--quiet: only findings at --fail-on, no summary: $(cat "$tmp/q")"
expect_rc "no abbreviations" 2 "$TT" lint data/src --tar hip "${R[@]}"
grep -q "unknown option \`--tar\` (did you mean \`--target\`?)" "$tmp/err" && ok || bad "--tar: $(cat "$tmp/err")"
expect_rc "no abbreviations in rules" 2 "$TT" rules --form json
expect_rc "no abbreviations in check" 2 "$TT" check --back sim x.yaml
expect_rc "exact long option with =" 0 "$TT" lint data/src/clean.cu "${R[@]}" --format=json
expect_rc "select one rule" 0 "$TT" lint data/src "${R[@]}" --select test-rename
expect_rc "select a glob" 1 "$TT" lint data/src "${R[@]}" --select 'hip-*' --ignore hip-ballot-32bit
"$TT" lint data/src "${R[@]}" --select 'hip-*' --ignore hip-ballot-32bit,hip-shfl-mask-32bit --format json >"$tmp/sel.json"
$PY -c 'import json,sys; f=json.load(open(sys.argv[1]))["findings"]; assert {x["rule_id"] for x in f}=={"hip-warp-offset-16"}, f' "$tmp/sel.json" && ok || bad "--select glob minus --ignore list"
expect_rc "select unknown id" 2 "$TT" lint data/src "${R[@]}" --select test-renam
grep -q "did you mean \`test-rename\`" "$tmp/err" && ok || bad "--select did you mean: $(cat "$tmp/err")"
(cd ../.. && "$TT" lint corpus/cuda --target hip --ignore hip-warp-strategy >/dev/null 2>"$tmp/dep.err"); [ $? = 2 ] && grep -q "removes \`hip-warp-strategy\`, which records the fact \`warp-strategy\`" "$tmp/dep.err" && ok || bad "dropping the classifier a kept rule depends on: $(cat "$tmp/dep.err")"
# An opt-in rule (jl-layout-line) runs only where a config's severity or an exact --select names it.
mkdir -p "$tmp/optin/on"
printf 'import cuTile as ct\nfunction k(a::ct.TileArray{Float32,1})\n    return\nend\n' >"$tmp/optin/k.jl"
cp "$tmp/optin/k.jl" "$tmp/optin/on/k.jl"
printf 'severity:\n  jl-layout-line: warning\n' >"$tmp/optin/on/.tiletrans.yaml"
optin() { (cd ../.. && "$TT" lint --target julia --format json --fail-on never "$@" </dev/null) >"$tmp/optin.json" 2>"$tmp/optin.err"; \
  $PY -c 'import json,sys; print(" ".join(sorted(f["path"].split("/optin/")[1] + ":" + f["severity"] for f in json.load(open(sys.argv[1]))["findings"] if f["rule_id"] == "jl-layout-line")))' "$tmp/optin.json"; }
[ "$(optin "$tmp/optin/k.jl" "$tmp/optin/on")" = "on/k.jl:warning" ] && ok || bad "opt-in rule: on only under the config that names it: $(optin "$tmp/optin/k.jl" "$tmp/optin/on") $(cat "$tmp/optin.err")"
[ "$(optin "$tmp/optin/k.jl" --select jl-layout-line)" = "k.jl:error" ] && ok || bad "opt-in rule: on by an exact --select: $(optin "$tmp/optin/k.jl" --select jl-layout-line)"
[ "$(optin "$tmp/optin/k.jl" --select 'jl-*')" = "" ] && ok || bad "opt-in rule: a --select glob does not turn it on"
(cd ../.. && "$TT" lint corpus/cuda --target hip --select hip-shfl-sync >/dev/null 2>"$tmp/dep.err"); [ $? = 2 ] && ok || bad "--select a dependent rule alone: $(cat "$tmp/dep.err")"
(cd ../.. && "$TT" rewrite corpus/cuda --target hip --select 'hip-shfl-sync,hip-warp-strategy' --diff >/dev/null 2>"$tmp/dep.err"); [ $? -le 1 ] && ok || bad "--select with its classifier: $(cat "$tmp/dep.err")"
expect_rc "explain json" 0 "$TT" explain hip-ballot-32bit --format json
$PY -c 'import json,sys; r=json.load(open(sys.argv[1]))["rule"]; assert r["id"]=="hip-ballot-32bit" and r["explain"] and r["examples"]' "$tmp/out" && ok || bad "explain --format json"
expect_rc "explain did you mean" 2 "$TT" explain hip-balot-32bit
grep -q "did you mean \`hip-ballot-32bit\`" "$tmp/err" && ok || bad "explain did you mean: $(cat "$tmp/err")"
expect_rc "input error" 3 "$TT" lint data/no-such-file.cu "${R[@]}"
[ "$(cat "$tmp/err")" = "data/no-such-file.cu: error: cannot open: No such file or directory" ] && [ ! -s "$tmp/out" ] && ok || bad "input error on stderr, path once: $(cat "$tmp/err") / $(cat "$tmp/out")"
mkdir -p "$tmp/empty/sub" && touch "$tmp/empty/README.md"
expect_rc "no matching files" 3 "$TT" lint "$tmp/empty" "${R[@]}"
grep -q "no input files" "$tmp/err" && ok || bad "no matching files said: $(cat "$tmp/err")"
mkdir -p "$tmp/norules"
expect_rc "empty rulebook" 2 "$TT" lint data/src --rules "$tmp/norules"
grep -q "no rules in" "$tmp/err" && ok || bad "empty rulebook said: $(cat "$tmp/err")"
expect_rc "no rule for the target" 2 "$TT" lint data/src "${R[@]}" --target julia
expect_rc "rule reads an undefined fact" 2 "$TT" test-rules fact-rules
grep -q "test-reads-a-fact.yaml:27:22: key \`query\`: \`#tt-fact?\` names fact \`no-such-fact\`" "$tmp/err" && ok || bad "undefined fact: $(cat "$tmp/err")"

# Suppressions: block comments, next-line, and the ones that do no work.
cat >"$tmp/sup.cu" <<'CU'
__device__ float f(float v) {
  v += __shfl_xor_sync(0xffffffff, v, 1); /* tiletrans-ignore: hip-shfl-mask-32bit */
  /* tiletrans-ignore-next-line: hip-shfl-mask-32bit -- reviewed */
  v += __shfl_xor_sync(0xffffffff, v, 2);
  /* tiletrans-ignore: hip-shfl-mask-32bit,
     test-rename */
  v += __shfl_xor_sync(0xffffffff, v, 4);
  v += __shfl_xor_sync(0xffffffff, v, 8); // tiletrans-ignore: hip-shfl-mask-32bt
  const char *s = "tiletrans-ignore: hip-shfl-mask-32bit"; v += __shfl_xor_sync(0xffffffff, v, 16);
  return v; // tiletrans-ignore:
}
CU
"$TT" lint "$tmp/sup.cu" "${R[@]}" --format json >"$tmp/sup.json"; "$TT" lint "$tmp/sup.cu" "${R[@]}" >"$tmp/sup.txt"
$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d["findings"]; assert [x["range"]["start"]["line"] for x in f]==[8,9], f; assert d["summary"]["suppressed"]==3; assert [(p["line"], p["column"]) for p in d["suppression_problems"]]==[(6,6),(8,64),(10,16)], d["suppression_problems"]' "$tmp/sup.json" && ok || bad "block, next-line and multi-line suppressions; none in a string: $(cat "$tmp/sup.json" | head -40)"
grep -q "sup.cu:6:6: warning: \`tiletrans-ignore: test-rename\` suppresses nothing" "$tmp/sup.txt" && grep -q "sup.cu:8:64: warning: \`tiletrans-ignore\` names \`hip-shfl-mask-32bt\`, which is no rule (did you mean \`hip-shfl-mask-32bit\`?)" "$tmp/sup.txt" && grep -q "sup.cu:10:16: warning: \`tiletrans-ignore\` names no rule" "$tmp/sup.txt" && ok || bad "unused suppressions reported: $(grep tiletrans-ignore "$tmp/sup.txt")"
printf '__device__ int g(int v) { return v; } // tiletrans-ignore: hip-ballot-32bit\n' >"$tmp/unused.cu"
expect_rc "unused suppression fails at warning" 1 "$TT" lint "$tmp/unused.cu" "${R[@]}" --fail-on warning
expect_rc "unused suppression passes at error" 0 "$TT" lint "$tmp/unused.cu" "${R[@]}"

# Carets by characters: é and € are one column each.
printf '__device__ float h(float v) { /* \xc3\xa9\xe2\x82\xac */ return __shfl_xor_sync(0xffffffff, v, 1); }\n' >"$tmp/utf8.cu"
"$TT" lint "$tmp/utf8.cu" "${R[@]}" >"$tmp/utf8.txt"
line=$(grep -A2 'hip-shfl-mask-32bit' "$tmp/utf8.txt" | sed -n 3p)
[ "$line" = "      | $(printf '%62s' '')^~~~~~~~~~" ] && ok || bad "caret by characters: [$line]"

# --diff paths that git apply and patch -p1 accept: ./x, ../x and absolute paths.
mkdir -p "$tmp/dr/repo/sub" && cp data/src/reduce.cu "$tmp/dr/repo/x.cu" && cp data/src/reduce.cu "$tmp/dr/repo/sub/y.cu"
git -C "$tmp/dr/repo" init -q && git -C "$tmp/dr/repo" add . && git -C "$tmp/dr/repo" -c user.name=t -c user.email=t@t commit -qm i
(cd "$tmp/dr/repo" && "$TT" rewrite ./x.cu --target hip --diff --rules "$OLDPWD/rules" >"$tmp/d1" 2>/dev/null
 git apply --check "$tmp/d1" && patch -p1 --dry-run <"$tmp/d1" >/dev/null) && ok || bad "--diff ./x: $(head -2 "$tmp/d1")"
(cd "$tmp/dr/repo/sub" && "$TT" rewrite ../x.cu --target hip --diff --rules "$OLDPWD/rules" >"$tmp/d2" 2>"$tmp/d2.err"
 grep -q "relative to $tmp/dr/repo: apply it there" "$tmp/d2.err" && cd .. && git apply --check "$tmp/d2" && patch -p1 --dry-run <"$tmp/d2" >/dev/null) && ok || bad "--diff ../x: $(head -2 "$tmp/d2") $(cat "$tmp/d2.err")"
(cd "$tmp/dr/repo" && "$TT" rewrite "$tmp/dr/repo/sub/y.cu" --target hip --diff --rules "$OLDPWD/rules" >"$tmp/d3" 2>/dev/null
 git apply --check "$tmp/d3" && patch -p1 --dry-run <"$tmp/d3" >/dev/null) && ok || bad "--diff absolute path: $(head -2 "$tmp/d3")"
mkdir -p "$tmp/dr/plain" && cp data/src/reduce.cu "$tmp/dr/plain/z.cu"
(cd "$tmp/dr/repo" && "$TT" rewrite "$tmp/dr/plain/z.cu" --target hip --diff --rules "$OLDPWD/rules" >"$tmp/d4" 2>/dev/null
 cd / && patch -p1 --dry-run <"$tmp/d4" >/dev/null && git apply --check "$tmp/d4") && ok || bad "--diff absolute path outside any repo: $(head -2 "$tmp/d4")"

# --- rewrite exit codes: 0 when every error is fixed, by its own fix or another's ------------
mkdir -p "$tmp/fixall" && cp data/src/reduce.cu "$tmp/fixall/"
expect_rc "rewrite fixing everything exits 0" 0 "$TT" rewrite "$tmp/fixall" --target hip --in-place "${R[@]}"
(cd ../.. && "$TT" rewrite corpus/cuda/block_reduce_sum/block_reduce_sum.cu --target hip --diff >/dev/null 2>&1; echo $? >"$tmp/rc.corpus")
[ "$(cat "$tmp/rc.corpus")" = 0 ] && ok || bad "rewrite of a corpus kernel that ports clean exits $(cat "$tmp/rc.corpus")"
printf '__global__ void k(int *o) { asm("mov.u32 %%0, %%laneid;" : "=r"(o[0])); }\n' >"$tmp/ptx.cu"
(cd ../.. && "$TT" rewrite "$tmp/ptx.cu" --target hip --diff >/dev/null 2>&1; echo $? >"$tmp/rc.ptx")
[ "$(cat "$tmp/rc.ptx")" = 1 ] && ok || bad "an unfixable error (inline PTX) left: exit $(cat "$tmp/rc.ptx"), expected 1"
# the unported construct stays, behind a tiletrans-ignore marker: lint of the port is clean
# and lists it as suppressed; a second rewrite changes nothing and still exits 1
(cd ../.. && "$TT" rewrite "$tmp/ptx.cu" --target hip >"$tmp/ptx.hip" 2>/dev/null)
grep -q '/\* tiletrans-ignore: hip-unsupported-inline-asm -- left unported: .* \*/ asm(' "$tmp/ptx.hip" && ok || bad "no marker before the unported asm: $(cat "$tmp/ptx.hip")"
(cd ../.. && "$TT" lint "$tmp/ptx.hip" --target hip >"$tmp/ptx.lint" 2>&1; echo $? >"$tmp/rc.ptxlint")
[ "$(cat "$tmp/rc.ptxlint")" = 0 ] && grep -q "1 finding silenced by tiletrans-ignore comment:" "$tmp/ptx.lint" &&
  grep -q "error (suppressed): inline PTX" "$tmp/ptx.lint" && ok || bad "lint of the marked port: exit $(cat "$tmp/rc.ptxlint"): $(cat "$tmp/ptx.lint")"
(cd ../.. && "$TT" lint "$tmp/ptx.hip" --target hip --format json | python3 -c 'import json,sys; sys.exit(json.load(sys.stdin)["summary"].get("suppressed") != 1)') && ok || bad "lint JSON of the marked port: summary.suppressed is not 1"
(cd ../.. && "$TT" rewrite "$tmp/ptx.hip" --target hip >"$tmp/ptx2.hip" 2>/dev/null; echo $? >"$tmp/rc.ptx2")
cmp -s "$tmp/ptx.hip" "$tmp/ptx2.hip" && [ "$(cat "$tmp/rc.ptx2")" = 1 ] && ok || bad "second rewrite of the marked port: exit $(cat "$tmp/rc.ptx2"), $(diff "$tmp/ptx.hip" "$tmp/ptx2.hip" | head -3)"

# --- config and rule-file errors: exit 2 with file, line and key -----------------------------
cfg() { printf "$2" >"$tmp/$1"; "$TT" lint data/src/clean.cu "${R[@]}" --config "$tmp/$1" >/dev/null 2>"$tmp/cfg.err"; echo $?; }
[ "$(cfg c1.yaml 'target: hip\n---\nexclude: [x]\n')" = 2 ] && grep -q "c1.yaml:3:1: a second YAML document" "$tmp/cfg.err" && ok || bad "second document: $(cat "$tmp/cfg.err")"
[ "$(cfg c2.yaml 'target: hip\0\n')" = 2 ] && grep -q "c2.yaml:1:12: a NUL byte" "$tmp/cfg.err" && ok || bad "NUL byte: $(cat "$tmp/cfg.err")"
head -c 300 "$TT" >"$tmp/c3.yaml"; "$TT" lint data/src/clean.cu "${R[@]}" --config "$tmp/c3.yaml" 2>"$tmp/cfg.err" >/dev/null; [ $? = 2 ] && grep -q "c3.yaml:1:1: byte 0x7f is not UTF-8 text" "$tmp/cfg.err" && ok || bad "binary garbage: $(cat "$tmp/cfg.err")"
[ "$(cfg c4.yaml 'exclude: ["src/[ab"]\n')" = 2 ] && grep -q "c4.yaml:1:12: key \`exclude\`: glob \`src/\[ab\`" "$tmp/cfg.err" && ok || bad "bad glob: $(cat "$tmp/cfg.err")"
[ "$(cfg c5.yaml 'include: ["a**b"]\n')" = 2 ] && grep -q "c5.yaml:1:12: key \`include\`" "$tmp/cfg.err" && ok || bad "bad ** glob: $(cat "$tmp/cfg.err")"
expect_rc "--config missing" 2 "$TT" lint data/src/clean.cu "${R[@]}" --config "$tmp/nope.yaml"
grep -q "nope.yaml: cannot open: No such file" "$tmp/err" && ok || bad "--config missing: $(cat "$tmp/err")"
expect_rc "--config a folder" 2 "$TT" lint data/src/clean.cu "${R[@]}" --config "$tmp"
mkdir -p "$tmp/unreadable/.tiletrans.yaml" && cp data/src/clean.cu "$tmp/unreadable/"
expect_rc "unreadable .tiletrans.yaml" 2 "$TT" lint "$tmp/unreadable" "${R[@]}"
grep -q ".tiletrans.yaml: cannot read" "$tmp/err" && ok || bad "unreadable config: $(cat "$tmp/err")"
mkdir -p "$tmp/badrule" && { cat rules/test-rename.yaml; printf -- '---\nid: second\n'; } >"$tmp/badrule/r.yaml"
expect_rc "rule file with two documents" 2 "$TT" test-rules "$tmp/badrule"


# Query errors of every kind exit 2 naming the file, line and key, and leak nothing (the
# sanitizer pass of scripts/test.sh runs this under LeakSanitizer).
qerr=0
for q in '((call_expression) @a' '((no_such_node) @a)' '((call_expression nofield: (identifier) @a))' \
         '((identifier) @a (#eq? @b "x"))' '((if_statement (number_literal) @a) @b)' \
         '((identifier) @a (#nosuch? @a))' '((identifier) @a (#match? @a "["))' '((identifier) @a (#tt-fact? @a "nothing" "x"))'; do
  mkdir -p "$tmp/qe" && rm -f "$tmp/qe/"*.yaml
  printf 'id: t-q\ntarget: hip\nlanguage: cuda\ncategory: sync\nseverity: error\nsummary: s\nmessage: m\nexplain: e\nquery: |\n  %s\nexamples:\n  - match: "int x;"\n' "$q" >"$tmp/qe/q.yaml"
  for cmd in "test-rules $tmp/qe" "lint data/src/clean.cu --rules $tmp/qe"; do
    $TT $cmd >/dev/null 2>"$tmp/qe.err"; rc=$?
    if [ $rc != 2 ] || ! grep -q "q.yaml:10:[0-9]*: key \`query\`" "$tmp/qe.err"; then qerr=1; echo "    query [$q] ($cmd): exit $rc: $(cat "$tmp/qe.err")"; fi
  done
done
[ $qerr = 0 ] && ok || bad "query errors: exit 2 with file, line and key"

# --- rewrite safety: symlinks, owner, hard links, temporaries of a killed run -----------------
mkdir -p "$tmp/safe/real" && cp data/src/reduce.cu "$tmp/safe/real/t.cu" && ln -s real/t.cu "$tmp/safe/link.cu"
cp data/src/reduce.cu "$tmp/safe/h1.cu" && ln "$tmp/safe/h1.cu" "$tmp/safe/h2.cu"
touch "$tmp/safe/.tiletrans-tmp-999999999-abcdef" "$tmp/safe/.tiletrans-tmp-$$-ghijkl"
if [ "$(id -u)" = 0 ]; then chown 1234:2345 "$tmp/safe/h1.cu"; fi
expect_rc "rewrite through a symlink" 0 "$TT" rewrite "$tmp/safe/link.cu" "$tmp/safe/h1.cu" --target hip --in-place "${R[@]}"
[ -L "$tmp/safe/link.cu" ] && grep -q hipMalloc "$tmp/safe/real/t.cu" && ok || bad "symlink kept, its target rewritten"
grep -q "h1.cu: warning: the file has 2 hard links" "$tmp/err" && ok || bad "hard links reported: $(cat "$tmp/err")"
[ ! -e "$tmp/safe/.tiletrans-tmp-999999999-abcdef" ] && [ -e "$tmp/safe/.tiletrans-tmp-$$-ghijkl" ] && grep -q "removed .*tiletrans-tmp-999999999-abcdef, a temporary file left by a killed run" "$tmp/err" && ok || bad "stale temporary removed, a live one kept: $(ls -a "$tmp/safe") $(cat "$tmp/err")"
if [ "$(id -u)" = 0 ]; then [ "$(stat -c %u:%g "$tmp/safe/h1.cu")" = 1234:2345 ] && ok || bad "owner kept: $(stat -c %u:%g "$tmp/safe/h1.cu")"; fi

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
