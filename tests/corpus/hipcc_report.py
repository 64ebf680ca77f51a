#!/usr/bin/env python3
"""Helper of hipcc.sh: reads "KERNEL TARGET" lines on stdin, the compile logs and exit codes
that hipcc.sh left in TMP, and prints one OK/FAIL line per compile plus a summary.

usage: hipcc_report.py TMP "TARGETS"     (run from the repo root)
A compile passes when hipcc exits 0 and every warning in the port is one that the
renames-only baseline (job "KERNEL base:TARGET") also has, by message text, on a line
that the rewrite left as it was in the CUDA original.
"""
import difflib
import os
import re
import sys


def changed_lines(orig, port):
    a = open(orig, encoding="utf-8", errors="replace").read().splitlines()
    b = open(port, encoding="utf-8", errors="replace").read().splitlines()
    out = set()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            out.update(range(j1 + 1, j2 + 1))
    return out


def main():
    tmp, targets = sys.argv[1], sys.argv[2].split()
    jobs = [l.split() for l in sys.stdin if l.strip()]
    counts = {t: [0, 0] for t in targets}  # target -> [ok, total]
    info = []
    warn_re = re.compile(r"^(?P<path>[^:\s]+\.hip):(?P<line>\d+):\d+: warning: (?P<msg>.*)$", re.M)
    renames = [0, 0]

    def warnings(k, t, basename):
        p = os.path.join(tmp, f"{k}.{t}.log")
        if not os.path.exists(p):
            return None
        log = open(p, errors="replace").read()
        return [(int(m.group("line")), m.group("msg")) for m in warn_re.finditer(log)
                if os.path.basename(m.group("path")) == basename]

    for k, t in jobs:
        if t.startswith("base:"):
            continue
        if t.startswith("renames:"):
            fname = t[len("renames:"):]
            log = open(os.path.join(tmp, f"{k}.{t}.log"), errors="replace").read()
            rc = int(open(os.path.join(tmp, f"{k}.{t}.rc")).read().strip() or 1)
            renames[1] += 1
            errs = [re.sub(r"^\S*/", "", l) for l in log.splitlines() if "error:" in l][:2]
            if k in os.environ.get("CUDA_ONLY_NAMES", "").split():
                good = rc != 0 and re.search(r"__nv_bfloat16|'hip/hip_bf16\.h' file not found", log) is not None
                why = ("compiles" if rc == 0 else "fails for another reason: " + " | ".join(errs)) + \
                      " (expected an error on bf16: the CUDA-only __nv_bfloat16, or hip/hip_bf16.h, which HIP 5.2 lacks)"
            elif fname.endswith(".hipify64.hip"):
                good = rc == 0
                why = "does not compile against the ROCm 7 interface: " + " | ".join(errs)
            else:
                good = rc != 0 and "The mask must be a 64-bit integer" in log
                why = ("compiles" if rc == 0 else "fails for another reason: " + " | ".join(errs)) + \
                      " (expected the 64-bit mask static_assert)"
            if good:
                renames[0] += 1
                print(f"OK renames {fname}")
            else:
                print(f"FAIL renames {fname} [gfx90a + rocm7_warp_sync.h]: {why}")
            continue
        port = os.path.join(tmp, "out", k, f"{k}.hip")
        log = open(os.path.join(tmp, f"{k}.{t}.log"), errors="replace").read()
        rc = int(open(os.path.join(tmp, f"{k}.{t}.rc")).read().strip() or 1)
        changed = changed_lines(f"corpus/cuda/{k}/{k}.cu", port)
        base_name = f"{k}.hipify64.hip" if os.path.exists(f"corpus/cuda/{k}/{k}.hipify64.hip") else f"{k}.hipify.hip"
        base = warnings(k, f"base:{t}", base_name)
        base_msgs = {msg for _, msg in base} if base is not None else set()
        on_edit, elsewhere = [], []
        for ln, msg in dict.fromkeys(warnings(k, t, f"{k}.hip")):  # host + device passes repeat them
            if ln in changed:
                on_edit.append(f"{k}.hip:{ln}: {msg}")
            elif msg not in base_msgs:
                on_edit.append(f"{k}.hip:{ln}: {msg} (not in the renames-only baseline {base_name})")
            else:
                elsewhere.append(f"{k}.hip:{ln}: {msg}")
        counts[t][1] += 1
        if rc != 0:
            errs = [l for l in log.splitlines() if ": error:" in l][:3]
            short = [re.sub(r"^\S*/", "", e) for e in errs]
            print(f"FAIL {k} [{t}]: hipcc exit {rc}: " + " | ".join(short))
        elif on_edit:
            print(f"FAIL {k} [{t}]: {len(on_edit)} warning(s) caused by the rewrite: "
                  + " | ".join(sorted(set(on_edit))[:3]))
        else:
            counts[t][0] += 1
            print(f"OK {k} [{t}]")
        for w in elsewhere:
            info.append(f"  note: {k} [{t}]: warning the renames-only baseline has too (not counted): {w}")
    for l in sorted(set(info)):
        print(l)
    print("per target: " + ", ".join(f"{t} {c[0]}/{c[1]} compiled cleanly" for t, c in counts.items()))
    if renames[1]:
        print(f"renames-only baselines under the ROCm 7 interface: {renames[0]}/{renames[1]} as expected "
              "(.hipify64.hip compiles, .hipify.hip hits the 64-bit mask static_assert)")


if __name__ == "__main__":
    main()
