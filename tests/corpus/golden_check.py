#!/usr/bin/env python3
"""Helper of golden.sh: checks one rewritten file against its lint findings.

usage: golden_check.py SOURCE REWRITTEN LINT_JSON IS_NEAR_MISS STRICT
Prints one line per assertion: "OK ..." or "FAIL ...", and free-form info lines.
  fixes: every line of SOURCE that the rewrite changed (per a line diff) is a line that
         some finding's fix edits (insertions: next to such a line), or the line of an
         `unsupported` finding without fix (its tiletrans-ignore marker). One later-round
         insertion is explained too: `#include "tiletrans_hip_compat.h"`, which
         hip-compat-include adds once an earlier fix has written a `tiletrans::` name.
  clean: (near-miss) no finding of severity error; warnings/notes are counted;
         warp-size / mask-width / ballot-width warnings are listed (failures if STRICT).
"""
import difflib
import json
import sys

WARP_CATEGORIES = {"warp-size", "mask-width", "ballot-width"}


def main():
    src_path, out_path, lint_path, near, strict = sys.argv[1:6]
    src = open(src_path, "rb").read()
    out = open(out_path, "rb").read()
    doc = json.load(open(lint_path))
    findings = [f for f in doc.get("findings", []) if f.get("path") == src_path]

    # byte offset -> 0-based line
    starts = [0]
    for i, b in enumerate(src):
        if b == 0x0A:
            starts.append(i + 1)

    def line_of(off):
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= off:
                lo = mid
            else:
                hi = mid - 1
        return lo

    touched = set()
    compat_names = any("tiletrans::" in (e.get("replacement") or "")
                       for f in findings for e in (f.get("fix") or {}).get("edits", []))
    for f in findings:
        fix = f.get("fix")
        if not fix:
            # a construct no rule ports is left in place with a tiletrans-ignore marker
            if f.get("category") == "unsupported":
                touched.add(f["range"]["start"]["line"] - 1)
            continue
        for e in fix.get("edits", []):
            if e.get("path") not in (None, src_path):
                continue
            a, b = e["start_byte"], e["end_byte"]
            for ln in range(line_of(a), line_of(max(a, b - 1)) + 1):
                touched.add(ln)

    a_lines = src.decode("utf-8", "replace").splitlines(keepends=True)
    b_lines = out.decode("utf-8", "replace").splitlines(keepends=True)
    sm = difflib.SequenceMatcher(None, a_lines, b_lines, autojunk=False)
    stray = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        if tag == "insert":
            # a later round's fix: hip-compat-include adds the support header once an
            # earlier fix introduced its names (the first round's findings cannot show it)
            if compat_names and all(l.strip() == '#include "tiletrans_hip_compat.h"' for l in b_lines[j1:j2]):
                continue
            if not ({i1 - 1, i1} & touched):
                stray.append((i1 + 1, "insert", "".join(b_lines[j1:j2])))
            continue
        for ln in range(i1, i2):
            if ln not in touched:
                stray.append((ln + 1, tag, a_lines[ln]))
    if stray:
        lines = ", ".join(str(s[0]) for s in stray[:10])
        print(f"FAIL rewrite changed line(s) {lines} that no finding's fix edits")
        for ln, tag, text in stray[:5]:
            print(f"    {src_path}:{ln}: {tag}: {text.rstrip()[:100]}")
    else:
        print("OK fixes")

    if near == "1":
        sev = {"error": 0, "warning": 0, "note": 0}
        for f in findings:
            sev[f["severity"]] = sev.get(f["severity"], 0) + 1
        # notes (e.g. hip-warp-strategy's "porting strategy none") are informational
        warp = [f for f in findings if f["category"] in WARP_CATEGORIES and f["severity"] != "note"]
        print(f"  near-miss {src_path}: {sev['error']} errors, {sev['warning']} warnings, "
              f"{sev['note']} notes; {len(warp)} warp-size/mask-width/ballot-width warnings or errors")
        for f in warp:
            print(f"    {f['severity']} {f['rule_id']} at {f['range']['start']['line']}: "
                  f"{f['message'][:110]}")
        errs = [f for f in findings if f["severity"] == "error"]
        if errs:
            print(f"FAIL near-miss has {len(errs)} error finding(s): "
                  + ", ".join(f"{f['rule_id']}@{f['range']['start']['line']}" for f in errs))
        else:
            print("OK clean")
        if strict == "1":
            if warp:
                print(f"FAIL near-miss has {len(warp)} warp-size/mask-width/ballot-width warning(s)")
            else:
                print("OK strict")


if __name__ == "__main__":
    main()
