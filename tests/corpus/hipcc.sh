#!/usr/bin/env bash
# Compiles tiletrans's HIP ports of the corpus with hipcc for gfx90a, gfx940 and gfx1030.
#   1. `tiletrans rewrite corpus/cuda --target hip --out DIR` (the whole tree, as a user would)
#   2. every DIR/<name>/<name>.hip (the port of <name>.cu, host code included) must compile
#      with `hipcc --offload-arch=T -c` for each target (HIPCC_FLAGS, default -Wall -Wextra,
#      are added) without warnings caused by tiletrans's edits: a warning fails the test when
#      it points at a line the rewrite changed, or when the renames-only baseline (the
#      kernel's .hipify64.hip, else .hipify.hip, compiled the same way with
#      rocm7_warp_sync.h) has no warning with the same text (e.g. a mask constant left
#      unused by the edits). Warnings the baseline shares are listed for information.
#   3. the kernels HIP cannot express (ptx_lanemask_compact, wmma_gemm_f16, cp_async_matmul)
#      are not compiled; their lint findings must include the `unsupported` category.
#   4. the renames-only baselines, compiled for gfx90a with rocm7_warp_sync.h (ROCm 7's
#      64-bit-mask *_sync interface, which hipcc 5.2 lacks) included first: every
#      <name>.hipify64.hip compiles; every <name>.hipify.hip that calls a *_sync function
#      fails with "The mask must be a 64-bit integer" (what ROCm >= 6.2 does).
# Usage: hipcc.sh PATH/TO/tiletrans [KERNEL...]     (SKIP_RENAMES=1 skips part 4)
# Env: HIPCC (default hipcc), HIP_TARGETS (default "gfx90a gfx940 gfx1030"), JOBS (default 2).
# Exit 77 (skip) when hipcc is not installed.
set -u
TT=$(realpath "$1"); shift
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$ROOT" || exit 2
export NO_COLOR=1
HIPCC=${HIPCC:-hipcc}
TARGETS=${HIP_TARGETS:-gfx90a gfx940 gfx1030}
JOBS=${JOBS:-2}
HIPCC_FLAGS=${HIPCC_FLAGS:--Wall -Wextra}
UNSUPPORTED="ptx_lanemask_compact wmma_gemm_f16 cp_async_matmul"
# Renames-only files whose bf16 does not build here: hipify keeps the CUDA-only
# __nv_bfloat16 and includes hip/hip_bf16.h, which HIP 5.2 lacks; they fail on that
# before any mask question (prove.sh's HIP52_MISSING).
export CUDA_ONLY_NAMES="prog_bf16_rmsnorm"
if ! command -v "$HIPCC" >/dev/null 2>&1; then
  echo "SKIP: $HIPCC not installed"
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-hipcc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
is_unsupported() { case " $UNSUPPORTED " in *" $1 "*) return 0;; esac; return 1; }

if [ $# -gt 0 ]; then kernels=("$@"); else
  kernels=(); for d in corpus/cuda/*/; do kernels+=("$(basename "$d")"); done
fi

"$TT" rewrite corpus/cuda --target hip --out "$tmp/out" >"$tmp/rewrite.log" 2>&1
rc=$?
if [ $rc -gt 1 ]; then bad "rewrite corpus/cuda: exit $rc"; tail -5 "$tmp/rewrite.log"; fi

# 3. unsupported kernels: lint must say so
for k in "${kernels[@]}"; do
  is_unsupported "$k" || continue
  "$TT" lint "corpus/cuda/$k/$k.cu" --target hip --format json --fail-on never >"$tmp/$k.lint.json" 2>/dev/null
  if python3 -c 'import json,sys; sys.exit(0 if any(f["category"]=="unsupported" for f in json.load(open(sys.argv[1]))["findings"]) else 1)' "$tmp/$k.lint.json"; then
    ok; echo "unsupported $k: lint reports category unsupported (not compiled)"
  else
    bad "$k: no \`unsupported\` finding in lint (inline PTX / wmma / cp.async must be reported)"
  fi
done

# 2b. ports whose host code uses a CUDA library (cuBLAS, ...): lint must say so
# (hip-unsupported-host-library), and they are not compiled: no ROCm library is
# installed here (check compiles their kernels, without the host code, for gfx90a).
library_only() {
  grep -v '^\s*//' "corpus/cuda/$1/$1.cu" | grep -qE '^\s*#\s*include\s*[<"](cublas_v2|cublas|cublasLt|cudnn|curand|cufft|cusparse|cusolverDn|nccl|nvToolsExt)\.h[>"]'
}
for k in "${kernels[@]}"; do
  is_unsupported "$k" && continue
  library_only "$k" || continue
  "$TT" lint "corpus/cuda/$k/$k.cu" --target hip --format json --fail-on never >"$tmp/$k.lint.json" 2>/dev/null
  if python3 -c 'import json,sys; sys.exit(0 if any(f["rule_id"]=="hip-unsupported-host-library" for f in json.load(open(sys.argv[1]))["findings"]) else 1)' "$tmp/$k.lint.json"; then
    ok; echo "library-only $k: lint reports hip-unsupported-host-library (not compiled: no ROCm libraries here)"
  else
    bad "$k: includes a CUDA library header but lint has no hip-unsupported-host-library finding"
  fi
done

# 2. compile every other port for every target (JOBS in parallel)
: >"$tmp/jobs"
for k in "${kernels[@]}"; do
  is_unsupported "$k" && continue
  library_only "$k" && continue
  if [ ! -f "$tmp/out/$k/$k.hip" ]; then bad "$k: rewrite wrote no $k/$k.hip"; continue; fi
  for t in $TARGETS; do
    echo "$k $t" >>"$tmp/jobs"
    if [ -f "corpus/cuda/$k/$k.hipify64.hip" ] || [ -f "corpus/cuda/$k/$k.hipify.hip" ]; then
      echo "$k base:$t" >>"$tmp/jobs"
    fi
  done
done
# 4. renames-only baselines under the ROCm 7 interface
if [ "${SKIP_RENAMES:-0}" != 1 ]; then
  for k in "${kernels[@]}"; do
    for f in "corpus/cuda/$k/$k.hipify64.hip" "corpus/cuda/$k/$k.hipify.hip"; do
      [ -f "$f" ] || continue
      case "$f" in *.hipify.hip) grep -v '^\s*//' "$f" | grep -qE '__[a-z_]+_sync\s*\(' || continue;; esac
      echo "$k renames:$(basename "$f")" >>"$tmp/jobs"
    done
  done
fi
export HIPCC HIPCC_FLAGS tmp HERE
xargs -a "$tmp/jobs" -P "$JOBS" -L 1 bash -c '
  k=$0 t=$1
  case $t in
    base:*) f=corpus/cuda/$k/$k.hipify64.hip; [ -f "$f" ] || f=corpus/cuda/$k/$k.hipify.hip
            $HIPCC --offload-arch=${t#base:} $HIPCC_FLAGS -include "$HERE/rocm7_warp_sync.h" -c "$f" -o /dev/null >"$tmp/$k.$t.log" 2>&1;;
    renames:*) f=corpus/cuda/$k/${t#renames:}
               $HIPCC --offload-arch=gfx90a -include "$HERE/rocm7_warp_sync.h" -c "$f" -o /dev/null >"$tmp/$k.$t.log" 2>&1;;
    *) $HIPCC --offload-arch=$t $HIPCC_FLAGS -c "$tmp/out/$k/$k.hip" -o /dev/null >"$tmp/$k.$t.log" 2>&1;;
  esac
  echo $? >"$tmp/$k.$t.rc"'

python3 "$HERE/hipcc_report.py" "$tmp" "$TARGETS" <"$tmp/jobs" >"$tmp/report"
while IFS= read -r line; do
  case "$line" in
    OK*) ok;;
    FAIL*) bad "${line#FAIL }";;
    *) echo "$line";;
  esac
done <"$tmp/report"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
