#!/usr/bin/env python3
"""Translates the cuTile Python kernels under each given folder with
`tiletrans rewrite --target julia` (both layouts) and counts, per @ct.kernel function,
whether it translated without an unsupported (error) finding inside it.

usage: count_kernels.py TILETRANS FOLDER... [--list]
Fetches nothing; the folders are checkouts (TileGym, cutile-python)."""
import json, os, re, subprocess, sys

def kernels(path):
    """(name, first line, last line) of each @ct.kernel def, by indentation."""
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    out = []
    for i, l in enumerate(lines):
        if re.match(r"\s*@ct\.kernel\b", l):
            j = i + 1
            while j < len(lines) and not re.match(r"\s*def\s", lines[j]):
                j += 1
            if j >= len(lines):
                continue
            m = re.match(r"(\s*)def\s+(\w+)", lines[j])
            ind = len(m.group(1))
            k = j + 1
            while k < len(lines) and (not lines[k].strip() or len(lines[k]) - len(lines[k].lstrip()) > ind
                                      or lines[k].lstrip().startswith("#")):
                k += 1
            out.append((m.group(2), i + 1, k))
    return out

def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    listing = "--list" in sys.argv
    tt, folders = args[0], args[1:]
    for layout in ("logical", "flipped"):
        total = clean = files = 0
        bad = {}
        for folder in folders:
            for root, _, names in sorted(os.walk(folder)):
                for n in sorted(names):
                    if not n.endswith(".py"):
                        continue
                    p = os.path.join(root, n)
                    ks = kernels(p)
                    if not ks:
                        continue
                    files += 1
                    r = subprocess.run([tt, "rewrite", "--target", "julia", "--layout", layout, "--format", "json", p],
                                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
                    try:
                        fs = json.loads(r.stdout)["findings"]
                    except (ValueError, KeyError):
                        print(f"{p}: no JSON (rc {r.returncode}): {r.stderr.strip()[:200]}", file=sys.stderr)
                        fs = None
                    for name, a, b in ks:
                        total += 1
                        errs = [] if fs is not None else ["crash"]
                        for f in fs or []:
                            line = f["range"]["start"]["line"]
                            if f["severity"] == "error" and a <= line <= b:
                                errs.append(f"{line}: {f['message']}")
                        if errs:
                            bad[f"{p}:{name}"] = errs
                        else:
                            clean += 1
        print(f"{layout}: {files} files, {total} kernels, {clean} translated with no unsupported finding inside them")
        if listing:
            for k, v in bad.items():
                print(f"  {k}: {len(v)}: {v[0]}")

if __name__ == "__main__":
    main()
