#!/usr/bin/env bash
# Corpus proofs with `tiletrans check` (sim backend: CUDA reference at warp 32, HIP
# candidate at warp 64). Three groups, each row an expected verdict (corpus/README.md):
#   (a) port     every spec as is (tiletrans translates the source): PASS at warp 64
#       port32   (CDNA) and, the same translation, at warp 32 (RDNA; `check --warp 32`).
#   (b) renames  pitfall kernels with candidate = <name>.hipify64.hip (hipify output with
#                only the _sync masks widened to 64 bits): MISMATCH or RUN-FAIL, never
#                PASS. A kernel without a _sync mask (nothing to widen) uses its
#                .hipify.hip instead: MISMATCH or RUN-FAIL. Kernels documented as
#                unaffected (attention_vec_padded, rmsnorm_block, template_group_sum; vector_add, fused_gelu, tiled_matmul, reduce_cg with their
#                plain .hipify.hip): PASS.
#   (c) mask32   <name>.hipify.hip that passes a 32-bit mask to a *_sync function:
#                BUILD-FAIL with "The mask must be a 64-bit integer".
# Then, where hipcc is installed, every candidate that check passed must compile with
# hipcc for gfx90a, gfx940 and gfx1030 (check itself compiles it for gfx90a).
# Usage: prove.sh PATH/TO/tiletrans [GROUP...]    (GROUP: port port32 renames mask32; default all)
# Env: JOBS (default 2), HANG_TIMEOUT (seconds per side for groups b/c, default 10: the
# cbrt_newton hang must end in RUN-FAIL by timeout), KEEP_TMP=1 keeps the work folder.
set -u
TT=$(realpath "$1"); shift
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
GROUPS_WANTED=${*:-port port32 renames mask32}
JOBS=${JOBS:-2}
HANG_TIMEOUT=${HANG_TIMEOUT:-10}
export NO_COLOR=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-prove.XXXXXX")
[ "${KEEP_TMP:-0}" = 1 ] && echo "work folder: $tmp" || trap 'rm -rf "$tmp"' EXIT
export TILETRANS_CACHE_DIR="$tmp/cache"   # shared by all groups: references build once

UNAFFECTED_HIPIFY="vector_add fused_gelu tiled_matmul reduce_cg prog_affine_struct prog_histogram_header"   # no _sync: .hipify.hip
UNAFFECTED_HIPIFY64="attention_vec_padded rmsnorm_block prog_bf16_rmsnorm template_group_sum"           # consistent 32-lane groups
# Whole programs whose 32-bit masks sit in a local header (hipify leaves the header as
# it is and make-hipify64.py widens the .hip file only): their renames-only port is
# rejected by the mask32 row alone.
HEADER_MASK32="prog_row_sum_header prog_softmax_template prog_layernorm_two_pass"
# Right in the sim but rejected by hipcc 5.2 (check compiles candidates with hipcc where
# installed): the *_sync calls of the .hipify64.hip files, and reduce_cg.hipify.hip's
# include order (hip_cooperative_groups.h before hip_runtime.h).
HIPCC_REJECTS="attention_vec_padded rmsnorm_block reduce_cg template_group_sum"
# Renames-only files that use a CUDA name HIP 5.2 lacks (coalesced_group::ballot,
# __nv_bfloat16): BUILD-FAIL in the sim's exact HIP 5.2 shim, before any wrong number
# could show (tiletrans's ports use tiletrans_hip_compat.h instead).
HIP52_MISSING="cg_coalesced_count prog_bf16_rmsnorm"

# hipcc_expect KERNEL EXPECT: HIPCC instead of PASS for the HIPCC_REJECTS kernels when
# check will compile with hipcc (installed, and TILETRANS_HIPCC not set empty).
hipcc_expect() {
  if case " $HIP52_MISSING " in *" $1 "*) true;; *) false;; esac; then
    echo HIP52
  elif [ "$2" = PASS ] && case " $HIPCC_REJECTS " in *" $1 "*) true;; *) false;; esac &&
     [ "${TILETRANS_HIPCC-x}" != "" ] && command -v "${TILETRANS_HIPCC:-hipcc}" >/dev/null; then
    echo HIPCC
  else
    echo "$2"
  fi
}
want() { case " $GROUPS_WANTED " in *" $1 "*) return 0;; esac; return 1; }
has_sync_mask() {  # a renames-only file (or a local header it includes) calls a masked *_sync function
  python3 - "$1" <<'EOF'
import os, re, sys
text = open(sys.argv[1]).read()
for h in re.findall(r'^#include "([^"]+)"', text, re.M):  # local headers, as check inlines them
    p = os.path.join(os.path.dirname(sys.argv[1]), h)
    if os.path.exists(p):
        text += "\n" + open(p).read()
t = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//"))
sync = re.search(r"__(shfl(_up|_down|_xor)?|ballot|any|all|match_\w+|reduce_\w+)_sync\s*\(", t)
sys.exit(0 if sync else 1)
EOF
}

# make_spec KERNEL LABEL CANDIDATE: a copy of the kernel's spec with absolute source and
# the given candidate; prints its path.
make_spec() {
  local k=$1 label=$2 cand=$3
  local d="$tmp/specs/$k.$label"
  mkdir -p "$d"
  python3 - "$ROOT/corpus/cuda/$k/check.yaml" "$d/check.yaml" "$k.$label" "$ROOT/corpus/cuda/$k" "$cand" <<'EOF'
import re, sys
src, dst, name, kdir, cand = sys.argv[1:]
out, seen = [], set()
for line in open(src).read().splitlines():
    m = re.match(r"^(name|source|candidate):\s*(\S+)", line)
    if m and m.group(1) == "name":
        line = f"name: {name}"; seen.add("name")
    elif m and m.group(1) == "source":
        line = f"source: {kdir}/{m.group(2)}"; seen.add("source")
        out.append(line); line = f"candidate: {kdir}/{cand}"
    elif m and m.group(1) == "candidate":
        continue
    # files named by data: and expect: are relative to the kernel's folder
    line = re.sub(r"\b(data|expect): ([^\s,}\[]+\.(?:npy|bin))", lambda d: f"{d.group(1)}: {kdir}/{d.group(2)}", line)
    out.append(line)
assert seen == {"name", "source"}, (src, seen)
open(dst, "w").write("\n".join(out) + "\n")
EOF
  echo "$d/check.yaml"
}

# rows: group kernel candidate expect  (expect: PASS | NOTPASS (MISMATCH or RUN-FAIL) | MASK32 |
# HIPCC (the sim says PASS, hipcc 5.2 rejects the file: BUILD-FAIL quoting hipcc))
: >"$tmp/rows"
specs_a=() specs_bc=()
for dir in corpus/cuda/*/; do
  k=$(basename "$dir")
  [ -f "$dir/check.yaml" ] || continue
  if want port; then echo "port $k tiletrans-translation PASS a64:$k" >>"$tmp/rows"; fi
  if want port32; then echo "port32 $k tiletrans-translation PASS a32:$k" >>"$tmp/rows"; fi
  if want port || want port32; then specs_a+=("$dir/check.yaml"); fi
  if want renames; then
    if [ -f "$dir/$k.hipify64.hip" ]; then
      exp=NOTPASS; case " $UNAFFECTED_HIPIFY64 " in *" $k "*) exp=PASS;; esac
      # a PASS also means the port builds (check compiles it with hipcc where installed):
      # HIP 5.2 has no *_sync functions, so these right-in-the-sim ports are BUILD-FAIL
      exp=$(hipcc_expect "$k" $exp)
      specs_bc+=("$(make_spec "$k" hipify64 "$k.hipify64.hip")")
      echo "renames $k $k.hipify64.hip $exp bc:$k.hipify64" >>"$tmp/rows"
    elif case " $HEADER_MASK32 " in *" $k "*) true;; *) false;; esac; then
      :  # rejected by its mask32 row below
    elif case " $UNAFFECTED_HIPIFY " in *" $k "*) true;; *) false;; esac; then
      specs_bc+=("$(make_spec "$k" hipify "$k.hipify.hip")")
      echo "renames $k $k.hipify.hip $(hipcc_expect "$k" PASS) bc:$k.hipify" >>"$tmp/rows"
    elif [ -f "$dir/$k.hipify.hip" ] && ! has_sync_mask "$dir/$k.hipify.hip"; then
      # no _sync mask to widen: the renames-only file itself is the candidate
      specs_bc+=("$(make_spec "$k" hipify "$k.hipify.hip")")
      echo "renames $k $k.hipify.hip $(hipcc_expect "$k" NOTPASS) bc:$k.hipify" >>"$tmp/rows"
    else
      echo "renames $k $k.hipify64.hip MISSING-FILE bc:$k.hipify64" >>"$tmp/rows"
    fi
  fi
  if want mask32 && [ -f "$dir/$k.hipify.hip" ] && has_sync_mask "$dir/$k.hipify.hip"; then
    if ! grep -q "^renames $k $k.hipify.hip" "$tmp/rows"; then
      specs_bc+=("$(make_spec "$k" hipify "$k.hipify.hip")")
    fi
    exp=MASK32; case " $HIP52_MISSING " in *" $k "*) exp=HIP52;; esac
    echo "mask32 $k $k.hipify.hip $exp bc:$k.hipify" >>"$tmp/rows"
  fi
done

start=$(date +%s)
if want port; then
  "$TT" check "${specs_a[@]}" --format json -j "$JOBS" >"$tmp/a64.json" 2>"$tmp/a64.err"
fi
if want port32; then
  "$TT" check "${specs_a[@]}" --format json -j "$JOBS" --warp 32 >"$tmp/a32.json" 2>"$tmp/a32.err"
fi
if [ ${#specs_bc[@]} -gt 0 ]; then
  "$TT" check "${specs_bc[@]}" --format json -j "$JOBS" --timeout "$HANG_TIMEOUT" >"$tmp/bc.json" 2>"$tmp/bc.err"
fi
elapsed=$(( $(date +%s) - start ))

python3 - "$tmp" "$elapsed" <<'EOF'
import json, os, re, sys
tmp, elapsed = sys.argv[1], sys.argv[2]
checks = {}
for f in ("a64.json", "a32.json", "bc.json"):
    p = os.path.join(tmp, f)
    if not os.path.exists(p):
        continue
    try:
        doc = json.load(open(p))
    except Exception as e:
        err = open(os.path.join(tmp, f[:-5] + ".err")).read()[-2000:]  # noqa
        print(f"could not read `tiletrans check` JSON ({f}): {e}\n{err}")
        continue
    for c in doc.get("checks", []):
        checks[f[:-5] + ":" + c["name"]] = c
npass = nfail = 0
rows = [l.split() for l in open(os.path.join(tmp, "rows")) if l.strip()]
def detail(c):
    if not c or c["status"] == "PASS":
        return ""
    msg = c.get("message") or ""
    if c["status"] == "MISMATCH":
        return "; ".join(f"{o['name']} {o.get('mismatches')}/{o.get('count')}"
                         for o in c.get("outputs", []) if o.get("mismatches"))
    m = re.search(r"\((?:cuda|hip)/warp\d+\): (\S+)", msg)
    if c["status"] == "BUILD-FAIL" and "The mask must be a 64-bit integer" in msg:
        return "64-bit mask static_assert"
    if c["status"] in ("BUILD-FAIL", "TRANSLATE-FAIL"):
        e = re.search(r"error: (.*)", msg)
        if e:
            return e.group(1)[:70]
    return (m.group(1) if m else msg.splitlines()[0][:40] if msg else "")

print(f"{'GROUP':8} {'KERNEL':22} {'CANDIDATE':34} {'EXPECTED':23} {'GOT':11} {'RESULT':6} DETAIL")
failures = []
for group, kernel, cand, expect, name in rows:
    c = checks.get(name)
    status = c["status"] if c else ("MISSING-FILE" if expect == "MISSING-FILE" else "NO-RESULT")
    msg = (c.get("message") or "") if c else ""
    exp_text = {"PASS": "PASS", "NOTPASS": "MISMATCH|RUN-FAIL",
                "MASK32": "BUILD-FAIL(64-bit mask)", "HIPCC": "BUILD-FAIL(hipcc)",
                "HIP52": "BUILD-FAIL(not in HIP5.2)"}.get(expect, expect)
    if expect == "PASS":
        ok = status == "PASS"
    elif expect == "NOTPASS":
        ok = status in ("MISMATCH", "RUN-FAIL")
    elif expect == "HIPCC":
        ok = status == "BUILD-FAIL" and "(hipcc --offload-arch=gfx90a) does not build" in msg and "error:" in msg
    elif expect == "HIP52":
        ok = status == "BUILD-FAIL" and re.search(r"has no member named|does not name a type|was not declared|no member named|unknown type name", msg) is not None
    elif expect == "MASK32":
        ok = status == "BUILD-FAIL" and "The mask must be a 64-bit integer" in msg
    else:
        ok = False
    if ok:
        npass += 1
    else:
        nfail += 1
        failures.append((group, kernel, cand, status, msg))
    print(f"{group:8} {kernel:22} {cand:34} {exp_text:23} {status:11} {'ok' if ok else 'FAIL':6} {detail(c)}")
for group, kernel, cand, status, msg in failures:
    first = "\n".join(msg.splitlines()[:4])
    print(f"\nFAIL {group} {kernel} ({cand}): {status}" + (f"\n    " + first.replace("\n", "\n    ") if first else ""))
# Every given candidate `check` passed compiles with hipcc for each HIP target (check
# itself compiled it for gfx90a; a PASS must hold for CDNA2, CDNA3 and RDNA2 alike).
# tiletrans's own translations are the whole program's port, which `rewrite --out`
# writes the same way: corpus.hipcc (hipcc.sh) compiles every one of those for the
# three targets, host code included, so they are not compiled twice.
import shutil, subprocess
hipcc = os.environ.get("TILETRANS_HIPCC", "hipcc")
if hipcc and shutil.which(hipcc):
    seen = set()
    for key, c in sorted(checks.items()):
        src = (c.get("candidate") or {}).get("source")
        ref = (c.get("reference") or {}).get("source")
        if c["status"] != "PASS" or not src or src in seen or "/translated/" in src:
            continue
        seen.add(src)
        for arch in ("gfx90a", "gfx940", "gfx1030"):
            cmd = [hipcc, f"--offload-arch={arch}", "-fsyntax-only", "-w", "-x", "hip",
                   "-I", os.path.dirname(os.path.abspath(ref or src)), src]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode == 0:
                npass += 1
            else:
                nfail += 1
                err = next((l for l in p.stderr.splitlines() if "error" in l), p.stderr[-200:])
                print(f"FAIL hipcc {arch}: a PASS candidate does not build: {src}: {err}")
    print(f"hipcc: {len(seen)} given PASS candidates compiled for gfx90a, gfx940, gfx1030")
print(f"\n(check time {elapsed}s)")
print(f"{npass} passed, {nfail} failed")
sys.exit(1 if nfail else 0)
EOF
