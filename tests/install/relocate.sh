#!/usr/bin/env bash
# Runs an install whose source and build trees are gone (build-install.sh made it):
# moved and copied prefixes, lint / rewrite / rules / explain / check, the overrides,
# the man pages, what is installed (no tests, no benches), the .tar.gz and the .deb
# unpacked elsewhere, and a program embedding libtiletrans through find_package.
# Usage: relocate.sh WORK
set -uo pipefail
work=$(realpath "$1")
P=$work/prefix
export NO_COLOR=1
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
expect_rc() { # expect_rc WANT DESCRIPTION CMD...
  local want=$1 what=$2; shift 2
  "$@" >"$work/out" 2>"$work/err"; local rc=$?
  if [ "$rc" = "$want" ]; then ok "$what (exit $rc)"; else bad "$what: exit $rc, expected $want"; cat "$work/err"; fi
}
contains() { if grep -q -- "$2" "$1"; then ok "$3"; else bad "$3: no \`$2\` in $1"; head -20 "$1"; fi; }

[ -d "$work/src" ] || [ -d "$work/build" ] && bad "the source or build tree still exists"
[ -x "$P/bin/tiletrans" ] || { bad "no $P/bin/tiletrans"; exit 1; }

cat >"$work/k.cu" <<'CU'
__global__ void k(int *out, const int *in) {
  unsigned m = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  if ((threadIdx.x & 31) == 0) out[threadIdx.x / 32] = __popc(m);
}
CU
run_basics() { # run_basics PREFIX LABEL
  local T=$1/bin/tiletrans
  expect_rc 0 "$2: --version" "$T" --version
  expect_rc 1 "$2: lint finds the 32-bit ballot" "$T" lint "$work/k.cu" --target hip
  contains "$work/out" "hip-ballot-32bit" "$2: lint names hip-ballot-32bit"
  expect_rc 0 "$2: rules" "$T" rules --target hip
  contains "$work/out" "hip-ballot-sync" "$2: rules lists hip-ballot-sync"
  expect_rc 0 "$2: explain" "$T" explain hip-ballot-32bit
  contains "$work/out" "hip-ballot-32bit" "$2: explain prints the rule"
  expect_rc 0 "$2: test-rules on the installed rulebook" "$T" test-rules "$1/share/tiletrans/rules"
}
run_basics "$P" "moved prefix"

T=$P/bin/tiletrans
# The build's query records are installed, and a first run with an empty cache finds
# every query of the rulebook there: it analyses none, so it records none of its own.
n_shipped=$(find "$P/share/tiletrans/queries" -type f 2>/dev/null | wc -l)
[ "$n_shipped" -ge 40 ] && ok "the rulebook's query records are installed ($n_shipped)" \
  || bad "share/tiletrans/queries holds $n_shipped records"
TILETRANS_CACHE_DIR=$work/first-cache expect_rc 1 "first lint with an empty cache" "$T" lint "$work/k.cu" --target hip
n_new=$(find "$work/first-cache" -type f 2>/dev/null | wc -l)
[ "$n_new" = 0 ] && ok "the first run analysed no query (the installed records had them all)" \
  || bad "the first run recorded $n_new queries of its own"
TILETRANS_CACHE_DIR=$work/first-cache2 TILETRANS_QUERY_RECORDS=$work/no-records expect_rc 1 \
  "lint without the installed records" "$T" lint "$work/k.cu" --target hip
n_new=$(find "$work/first-cache2" -type f 2>/dev/null | wc -l)
[ "$n_new" -gt 0 ] && ok "TILETRANS_QUERY_RECORDS overrides the installed records ($n_new analysed)" \
  || bad "with TILETRANS_QUERY_RECORDS pointing nowhere, no query was analysed"
n_pch=$(find "$P/share/tiletrans/sim/pch" -name 'tt_sim_std.hpp.gch' -size +1M 2>/dev/null | wc -l)
[ "$n_pch" = 1 ] && ok "the build's precompiled shim header is installed" \
  || bad "share/tiletrans/sim/pch holds $n_pch precompiled headers"
cp "$work/k.cu" "$work/k2.cu"
# (Exit 0 or 1: whether fixed findings still count is issue 12's point 6, not install's.)
"$T" rewrite "$work/k2.cu" --target hip --in-place >"$work/out" 2>"$work/err"; rc=$?
[ "$rc" -le 1 ] && ok "rewrite --in-place (exit $rc)" || { bad "rewrite --in-place: exit $rc"; cat "$work/err"; }
contains "$work/k2.cu" "__ballot(" "rewrite wrote the port"

# check: compiles harnesses with the installed sim headers and runtime, fresh cache.
TILETRANS_CACHE_DIR=$work/cache expect_rc 0 "check of corpus vector_add" "$T" check "$work/kernel/vector_add/check.yaml"
contains "$work/out" "PASS" "check verdict PASS"

# Overrides: TILETRANS_RULES_DIR wins; a wrong one is a rule error naming the folder.
TILETRANS_RULES_DIR=$work/no-such-rules expect_rc 2 "TILETRANS_RULES_DIR is honoured" "$T" rules
contains "$work/err" "no-such-rules" "the error names TILETRANS_RULES_DIR's folder"
TILETRANS_SIM_LIB=$work/no-such-lib.a TILETRANS_CACHE_DIR=$work/cache \
  expect_rc 1 "TILETRANS_SIM_LIB is honoured" "$T" check "$work/kernel/vector_add/check.yaml"
contains "$work/out" "no-such-lib.a" "the verdict names TILETRANS_SIM_LIB's file"

# Man pages, generated from --help.
for page in tiletrans tiletrans-lint tiletrans-rewrite tiletrans-check tiletrans-rules tiletrans-explain tiletrans-test-rules; do
  if MANPATH=$P/share/man man -w "$page" >/dev/null 2>&1; then ok "man $page found"; else bad "man $page not found"; fi
done
MANPATH=$P/share/man MANWIDTH=100 man tiletrans-lint 2>/dev/null | col -b >"$work/man.txt"
contains "$work/man.txt" "--fail-on" "man tiletrans-lint holds lint's --help options"
contains "$work/man.txt" "TILETRANS_RULES_DIR" "man tiletrans-lint documents TILETRANS_RULES_DIR"

# What is installed: nothing from tests/ or bench/, no build-tree paths needed.
find "$P" -type f | sed "s|^$P/||" | sort >"$work/files"
if grep -E '(^|/)(test_|bench|tt-parse|criterion)' "$work/files"; then bad "tests or benches installed"; else ok "no tests or benches installed"; fi
for want in bin/tiletrans include/tiletrans.h lib/cmake/tiletrans/tiletransConfig.cmake share/doc/tiletrans/README.md; do
  grep -qx "$want" "$work/files" && ok "installed $want" || bad "not installed: $want"
done

# A copy of the install works too (the first one stays).
cp -a "$P" "$work/copy"
run_basics "$work/copy" "copied prefix"

# Packages: the .tar.gz and the .deb unpacked anywhere run as they are.
tgz=$(ls "$work"/pkg/*.tar.gz 2>/dev/null | head -1)
deb=$(ls "$work"/pkg/*.deb 2>/dev/null | head -1)
if [ -n "$tgz" ]; then
  mkdir -p "$work/tgz" && tar -C "$work/tgz" -xzf "$tgz"
  top=$(ls -d "$work"/tgz/*/ | head -1)
  expect_rc 1 ".tar.gz: lint" "${top}bin/tiletrans" lint "$work/k.cu" --target hip
else bad "no .tar.gz made"; fi
if [ -n "$deb" ]; then
  dpkg-deb -c "$deb" >"$work/deb.list"
  contains "$work/deb.list" "./usr/bin/tiletrans" ".deb holds /usr/bin/tiletrans"
  contains "$work/deb.list" "./usr/share/tiletrans/rules/" ".deb holds the rulebook"
  dpkg-deb -f "$deb" Depends >"$work/deb.depends"
  contains "$work/deb.depends" "libfyaml" ".deb depends on libfyaml (shlibdeps)"
  dpkg-deb -x "$deb" "$work/debroot"
  expect_rc 1 ".deb unpacked elsewhere: lint" "$work/debroot/usr/bin/tiletrans" lint "$work/k.cu" --target hip
else bad "no .deb made"; fi

# find_package(tiletrans) from a tool that embeds it.
here=$(cd "$(dirname "$0")" && pwd)
if cmake -S "$here/embed" -B "$work/embed" -DCMAKE_PREFIX_PATH="$P" >"$work/embed.log" 2>&1 &&
   cmake --build "$work/embed" >>"$work/embed.log" 2>&1; then
  ok "find_package(tiletrans) and link tiletrans::tiletrans"
  expect_rc 0 "embedded lint and rewrite" "$work/embed/embed"
  [ "$fail" = 0 ] || cat "$work/err"
  if nm -D --defined-only "$P"/lib*/libtiletrans.so | awk '{print $3}' | grep -v '^tiletrans_' | grep -q .; then
    bad "libtiletrans exports symbols other than tiletrans_*"; nm -D --defined-only "$P"/lib*/libtiletrans.so | grep -v ' tiletrans_' | head
  else ok "libtiletrans exports only tiletrans_*"; fi
else bad "embedding build failed"; tail -20 "$work/embed.log"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
