#!/usr/bin/env python3
"""Driver of run.sh (see there). usage: run.py TILETRANS REALCODE HERE

Every @ct.kernel of the two source folders is a row. Per layout: translated (no error
finding inside the kernel), and the verdict of specs/<row>.yaml (source vs tiletrans's
translation, `check --layout L`). specs/<row>.torch.yaml (source + translation, each
against a torch reference) and specs/<row>.authors.yaml (the authors' cuTile.jl against
the same reference) exist where the authors wrote a cuTile.jl version. specs/nospec.yaml
lists the kernels without a spec, each with its reason.
Placeholders in specs: CHECKOUT/ (REALCODE), TRANSLATED/ (the translation of REALCODE
in the layout being checked), AUTHORS/ (the authors' files with a layout line)."""
import glob, json, os, subprocess, sys, tempfile

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from count_kernels import kernels  # noqa: E402

FOLDERS = ["TileGym/src/tilegym/ops/cutile", "cutile-python/samples"]
# The authors' cuTile.jl files: (checkout path, layout of its arrays, name in AUTHORS/).
AUTHORS = [("cuTile.jl/examples/%s.jl" % f, "flipped", "cutilejl-%s.jl" % f)
           for f in ("vadd", "matmul", "transpose", "batchmatmul", "softmax", "layernorm")] + \
          [("TileGym/julia/kernels/%s.jl" % f, "logical", "tilegym-%s.jl" % f) for f in ("add", "matmul", "softmax")]
LAYOUTS = ("logical", "flipped")


def run(cmd, **kw):
    return subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, **kw)


def translate(tt, real, tmp, layout):
    """Writes the translations under tmp/layout/ and returns {(relpath, kernel): error or None}."""
    out = {}
    for folder in FOLDERS:
        dst = os.path.join(tmp, layout, folder)
        r = run([tt, "rewrite", "--target", "julia", "--layout", layout, "--format", "json", "--out", dst,
                 os.path.join(real, folder)], timeout=600)
        try:
            findings = json.loads(r.stdout)["findings"]
        except (ValueError, KeyError):
            sys.exit(f"run.py: rewrite of {folder} ({layout}) gave no JSON: {r.stderr.strip()[:400]}")
        errs = {}
        for f in findings:
            if f["severity"] == "error":
                errs.setdefault(os.path.relpath(f["path"], real), []).append(f)
        for root, _, names in sorted(os.walk(os.path.join(real, folder))):
            for n in sorted(names):
                if n.endswith(".py"):
                    p = os.path.join(root, n)
                    rel = os.path.relpath(p, real)
                    for name, a, b in kernels(p):
                        bad = [f for f in errs.get(rel, []) if a <= f["range"]["start"]["line"] <= b]
                        out[(rel, name)] = (f"{bad[0]['range']['start']['line']}: {bad[0]['message']}" if bad else None)
    return out


def load_specs(here):
    specs = {}
    for path in sorted(glob.glob(os.path.join(here, "specs", "*.yaml"))):
        base = os.path.basename(path)
        if base == "nospec.yaml":
            continue
        stem, kind = base[:-5], "self"
        for k in ("torch", "authors"):
            if stem.endswith("." + k):
                stem, kind = stem[: -len(k) - 1], k
        specs.setdefault(stem, {})[kind] = path
    return specs


def key_of(spec_path):
    d = yaml.safe_load(open(spec_path))
    src = d.get("source", "")
    return (src.replace("CHECKOUT/", "", 1), d["kernel"])


def materialize(path, tmp, layout, real):
    text = open(path).read().replace("CHECKOUT/", real + "/").replace("TRANSLATED/", f"{tmp}/{layout}/")
    text = text.replace("AUTHORS/", f"{tmp}/authors/")
    dst = os.path.join(tmp, "specs", layout, os.path.basename(path))
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    open(dst, "w").write(text)
    return dst


def check(tt, spec_paths, layout, tmp):
    """{spec file basename: (status, message)}"""
    if not spec_paths:
        return {}
    env = dict(os.environ, NO_COLOR="1", TILETRANS_CACHE_DIR=os.environ.get("TILETRANS_CACHE_DIR", f"{tmp}/cache"))
    r = subprocess.run([tt, "check", "--layout", layout, "--format", "json", "-j", "2"] + spec_paths,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, timeout=3600)
    try:
        checks = json.loads(r.stdout)["checks"]
    except (ValueError, KeyError):
        sys.exit(f"run.py: check ({layout}) gave no JSON (rc {r.returncode}): {r.stderr.strip()[-600:]}")
    return {os.path.basename(c["spec"]): (c["status"], (c.get("message") or "").strip()) for c in checks}


def main():
    tt, real, here = sys.argv[1:4]
    for repo in ("TileGym", "cutile-python", "cuTile.jl"):
        rev = run(["git", "-C", os.path.join(real, repo), "rev-parse", "--short", "HEAD"]).stdout.strip()
        print(f"{repo}: {rev or 'not a git checkout'}")
    tmp = tempfile.mkdtemp(prefix="tt-jlauthors.")
    try:
        report(tt, real, here, tmp)
    finally:
        subprocess.run(["rm", "-rf", tmp])


def report(tt, real, here, tmp):
    os.makedirs(os.path.join(tmp, "authors"))
    for src, layout, name in AUTHORS:
        p = os.path.join(real, src)
        if not os.path.isfile(p):
            sys.exit(f"run.py: {p} is missing")
        open(os.path.join(tmp, "authors", name), "w").write(f"# layout: {layout}\n" + open(p).read())
    tr = {l: translate(tt, real, tmp, l) for l in LAYOUTS}
    specs = load_specs(here)
    nospec = {(e["source"], e["kernel"]): e["reason"] for e in yaml.safe_load(open(os.path.join(here, "specs", "nospec.yaml")))}
    by_key = {}
    for stem, kinds in specs.items():
        k = key_of(kinds.get("self") or kinds["torch"])
        if k not in tr["logical"]:
            sys.exit(f"run.py: specs/{stem}: no @ct.kernel {k[1]} in {k[0]}")
        by_key[k] = stem
    verdicts = {}
    for layout in LAYOUTS:
        paths = [materialize(kinds[kind], tmp, layout, real) for kinds in specs.values() for kind in ("self", "torch")
                 if kind in kinds]
        if layout == "logical":  # the authors' files do not depend on the translation's layout
            paths += [materialize(kinds["authors"], tmp, layout, real) for kinds in specs.values() if "authors" in kinds]
        verdicts[layout] = check(tt, paths, layout, tmp)
    rows, fails = [], []
    tot = dict(kernels=0, tl=0, tf=0, spec=0, pl=0, pf=0, auth=0, auth_pass=0)

    def verdict(layout, path):
        st, msg = verdicts[layout].get(os.path.basename(path), ("MISSING", "no result"))
        return st, msg

    for key in sorted(tr["logical"]):
        rel, name = key
        tot["kernels"] += 1
        tl, tf = tr["logical"][key] is None, tr["flipped"][key] is None
        tot["tl"] += tl
        tot["tf"] += tf
        for layout, ok in (("logical", tl), ("flipped", tf)):
            if not ok:
                fails.append(f"{rel}:{name} ({layout}): not translated: {tr[layout][key]}")
        stem = by_key.get(key)
        cells = []
        if not stem:
            reason = nospec.get(key, "no spec written")
            fails.append(f"{rel}:{name}: no spec: {reason}")
            cells = ["no spec", "no spec", "-"]
        else:
            kinds = specs[stem]
            tot["spec"] += 1
            for layout, tkey in (("logical", "pl"), ("flipped", "pf")):
                st, msg = verdict(layout, kinds["self"]) if "self" in kinds else ("-", "")
                tot[tkey] += st == "PASS"
                cells.append(st)
                if st not in ("PASS", "-"):
                    fails.append(f"{rel}:{name} ({layout}): {st}: {msg.splitlines()[0] if msg else ''}")
            if "authors" in kinds:
                tot["auth"] += 1
                parts = []
                # A torch spec names the source and the translation: its verdict is the first not PASS.
                for label, layout, kind in (("py+jl logical", "logical", "torch"), ("py+jl flipped", "flipped", "torch"),
                                            ("authors' jl", "logical", "authors")):
                    st, msg = verdict(layout, kinds[kind])
                    parts.append((label, st, msg))
                # A torch spec with source and candidate: PASS means both PASS against torch.
                ok = all(st == "PASS" for _, st, _ in parts)
                tot["auth_pass"] += ok
                cells.append("PASS" if ok else "FAIL")
                for label, st, msg in parts:
                    if st != "PASS":
                        fails.append(f"{rel}:{name} vs torch ({label}): {st}: {msg.splitlines()[0] if msg else ''}")
            else:
                cells.append("-")
        rows.append((f"{rel.split('/')[0]}:{os.path.basename(rel)}:{name}",
                     ("L" if tl else "-") + ("F" if tf else "-"), *cells))
    w = max(len(r[0]) for r in rows)
    print(f"\n{'kernel':<{w}}  {'translated':<10}  {'logical':<14}  {'flipped':<14}  vs authors' Julia")
    for r in rows:
        print(f"{r[0]:<{w}}  {r[1]:<10}  {r[2]:<14}  {r[3]:<14}  {r[4]}")
    print(f"\n{tot['kernels']} kernels; translated {tot['tl']} logical, {tot['tf']} flipped; {tot['spec']} with a spec; "
          f"PASS against the Python source: {tot['pl']} logical, {tot['pf']} flipped; "
          f"{tot['auth']} with the authors' Julia: {tot['auth_pass']} PASS (Python, both translations and the authors' "
          f"Julia each against one torch reference)")
    if fails:
        print("\nnot PASS:")
        for f in fails:
            print("  " + f)


if __name__ == "__main__":
    main()
