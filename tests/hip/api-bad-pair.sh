#!/usr/bin/env bash
# `scripts/gen-hip-api --check` fails on a committed rename that does not compile with
# hipcc: a copy of rules/hip/api gets cuMemcpyHtoD -> hipMemcpyHtoD (HIP 5.2's takes
# `void *src`, CUDA's `const void *srcHost`), and --check must exit 1. Exit 77 when the
# generator skips (an input, hipcc included, is missing here).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$ROOT/rules/hip/api" "$tmp/api"
"$ROOT/scripts/gen-hip-api" --check --out "$tmp/api" 2>"$tmp/err0"; rc=$?
[ "$rc" = 77 ] && { cat "$tmp/err0"; exit 77; }
[ "$rc" = 0 ] || { echo "FAIL: --check of an untouched copy exited $rc"; cat "$tmp/err0"; exit 1; }
grep -q 'cuMemcpyHtoD: "`hipMemcpyHtoD` does not compile' "$tmp/api/unsupported.yaml" ||
  { echo "FAIL: cuMemcpyHtoD is not listed as unsupported with hipcc's reason"; exit 1; }
sed -i 's/^    cuMemcpyDtoH: hipMemcpyDtoH$/&\n    cuMemcpyHtoD: hipMemcpyHtoD/' "$tmp/api/driver.yaml"
grep -q '^    cuMemcpyHtoD: hipMemcpyHtoD$' "$tmp/api/driver.yaml" || { echo "FAIL: could not inject the pair"; exit 1; }
"$ROOT/scripts/gen-hip-api" --check --out "$tmp/api" >/dev/null 2>&1; rc=$?
[ "$rc" = 1 ] && { echo "api-bad-pair: --check fails on a pair hipcc rejects"; exit 0; }
echo "FAIL: --check exited $rc with a pair that does not compile"; exit 1
