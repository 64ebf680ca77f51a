#!/usr/bin/env bash
# Compiles rules/hip/support/tiletrans_hip_compat.h, through tests/hip/compat_use.hip (a use
# of each of its pieces), with hipcc for gfx90a and gfx940 (wave64) and gfx1030 (wave32),
# warnings as errors. Exit 77 only when hipcc is not installed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
HIPCC=${HIPCC:-hipcc}
command -v "$HIPCC" >/dev/null || { echo "compat: skipped: no hipcc"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for arch in gfx90a gfx940 gfx1030; do
  if "$HIPCC" --offload-arch=$arch -c -Wall -Wextra -Werror -Wno-unused-command-line-argument -I "$ROOT/rules/hip/support" \
       -o "$tmp/c.o" "$HERE/compat_use.hip" >"$tmp/log" 2>&1; then
    echo "compat: $arch ok"
  else
    echo "FAIL: compat header does not compile for $arch"; grep -v "unused-command-line\|linker' input" "$tmp/log" | head -20
    fail=1
  fi
done
exit $fail
