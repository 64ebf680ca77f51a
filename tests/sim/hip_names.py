#!/usr/bin/env python3
"""The sim's HIP shim against the real HIP headers, name by name.

usage: hip_names.py SHIM_INCLUDE_DIR NAMES_FILE [--hipcc HIPCC] [--clang CLANG]

Both sides are read by clang itself (`-Xclang -ast-dump`, `-E -dD`): the real side is
hipcc's device compile of <hip/hip_runtime.h>, <hip/hip_cooperative_groups.h>,
<hip/hip_fp16.h> and <hip/hip_bfloat16.h>; the shim side is the same includes against
SHIM_INCLUDE_DIR (TT_SIM_WARP 64), keeping only what the shim's own files declare.
A public name is a declaration (function, type, variable, enumerator, macro) at global
scope or in namespace cooperative_groups, or a member of a cooperative_groups class
(compared by member name: the two implementations arrange their classes differently).

Fails (exit 1) when
  1. the shim offers a public name that the real headers lack and NAMES_FILE does not
     list under [beyond-hip-5.2] (each with the HIP release that has it), or
  2. a public name of a real header that NAMES_FILE lists under [emulated-headers] is
     missing from the shim and not listed under [not-emulated] (with a reason), or
  3. a name listed in NAMES_FILE is stale: under [beyond-hip-5.2] but present in the
     real headers or absent from the shim, or under [not-emulated] but offered by the
     shim or absent from the real headers.
Exit 77 when hipcc is not installed (nothing to compare against)."""
import os, re, shutil, subprocess, sys, tempfile

INCLUDES = ["hip/hip_runtime.h", "hip/hip_cooperative_groups.h", "hip/hip_fp16.h"]
DECL = re.compile(r"^(?P<kind>\w+Decl) 0x[0-9a-f]+ (?:(?:prev|parent) 0x[0-9a-f]+ )*<(?P<range>.*?)> "
                  r"(?P<rest>.*)$")
LOC = re.compile(r"[^ <>:,]+:\d+:\d+|line:\d+:\d+|col:\d+")
NAMED = {"FunctionDecl", "FunctionTemplateDecl", "CXXRecordDecl", "ClassTemplateDecl", "TypedefDecl",
         "TypeAliasDecl", "TypeAliasTemplateDecl", "VarDecl", "EnumDecl", "EnumConstantDecl",
         "CXXMethodDecl", "CXXConversionDecl", "FieldDecl", "VarTemplateDecl"}
INTERNAL_NS = {"impl", "internal", "details", "detail", "__hip_internal"}
FLAGS = {"implicit", "used", "referenced", "invalid", "constexpr", "inline", "static", "struct",
         "class", "union", "enum", "definition", "extern", "cinit", "hidden"}


def decl_name(rest):
    """The declared name in the part of a dump line after the source range."""
    toks = rest.split(" ")
    i = 0
    if i < len(toks) and LOC.fullmatch(toks[i]):
        i += 1
    while i < len(toks) and toks[i] in FLAGS:
        i += 1
    if i < len(toks) and re.fullmatch(r"[A-Za-z_]\w*", toks[i]):
        return toks[i]
    return None


def public_decls(dump, keep_file):
    """Public names of an -ast-dump text, from files for which keep_file(path) holds."""
    names, stack, cur = set(), [], ""  # stack: (depth, kind, name)
    for line in dump.splitlines():
        m = re.match(r"^([ |`]*)[|`]-", line)
        if not m:
            continue
        depth = len(m.group(1)) // 2 + 1
        body = line[len(m.group(0)):].replace("<scratch space>", "scratch-space").replace("<built-in>", "built-in")
        d = DECL.match(body)
        # clang prints a file name only where it differs from the last location printed:
        # the range's ends and the name's location, in that order, update it.
        head = body.split("> ", 1)
        locs = LOC.findall(head[0]) + (LOC.findall(head[1].split(" ", 1)[0]) if len(head) > 1 else [])
        for loc in locs:
            if not loc.startswith(("line:", "col:")):
                cur = loc.rsplit(":", 2)[0]
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if not d:
            continue
        kind, name = d.group("kind"), decl_name(d.group("rest"))
        if kind == "NamespaceDecl":
            stack.append((depth, "ns", name or "(anonymous)"))
            continue
        if kind in ("LinkageSpecDecl",):
            stack.append((depth, "ns", "extern"))
            continue
        ns = [n for dd, k, n in stack if k == "ns" and n not in ("(anonymous)", "extern")]
        classes = []  # a class template and its record are one class
        for dd, k, n in stack:
            if k == "class" and (not classes or classes[-1] != n):
                classes.append(n)
        if kind in ("CXXRecordDecl", "ClassTemplateDecl", "ClassTemplateSpecializationDecl",
                    "ClassTemplatePartialSpecializationDecl", "EnumDecl"):
            stack.append((depth, "class", name))
        if kind == "FunctionTemplateDecl" or kind == "FunctionDecl" or kind == "CXXMethodDecl":
            stack.append((depth, "fn", name))
        if any(k == "fn" for dd, k, n in stack[:-1]) or kind not in NAMED or not name:
            continue
        if any(k == "fn" for dd, k, n in stack if dd < depth):
            continue
        if not keep_file(cur) or (ns and (ns[0] != "cooperative_groups" or any(n in INTERNAL_NS for n in ns))):
            continue
        if kind == "FieldDecl" or name.startswith("__hip_internal"):
            continue
        if classes and kind != "EnumConstantDecl":
            if ns[:1] == ["cooperative_groups"] and len(classes) == 1 and kind in ("CXXMethodDecl", "FunctionTemplateDecl"):
                names.add("cooperative_groups::." + name)
            continue
        names.add(("cooperative_groups::" if ns else "") + name)
    return names


def macros(pp, keep_file):
    names, cur = set(), ""
    for line in pp.splitlines():
        m = re.match(r'^# \d+ "([^"]*)"', line)
        if m:
            cur = m.group(1)
            continue
        m = re.match(r"^#define (\w+)", line)
        if m and keep_file(cur) and not re.fullmatch(r"(HIP_INCLUDE_\w+|\w+_H)", m.group(1)):
            names.add(m.group(1))
    return names


def read_names(path):
    sections, cur = {}, None
    for raw in open(path):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"\[([\w.-]+)\]", line)
        if m:
            cur = sections.setdefault(m.group(1), {})
            continue
        name, _, why = line.partition(" ")
        if cur is None or not why.strip():
            sys.exit(f"{path}: '{line}': every entry needs a section and a reason")
        cur[name] = why.strip()
    return sections


def run(argv):
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("failed: " + " ".join(argv) + "\n" + r.stderr[-2000:])
    return r.stdout


def main():
    args = sys.argv[1:]
    hipcc = os.environ.get("HIPCC", "hipcc")
    clang = os.environ.get("CLANGXX", "clang++")
    while "--hipcc" in args:
        i = args.index("--hipcc"); hipcc = args[i + 1]; del args[i:i + 2]
    while "--clang" in args:
        i = args.index("--clang"); clang = args[i + 1]; del args[i:i + 2]
    shim, names_file = os.path.realpath(args[0]), args[1]
    if not shutil.which(hipcc):
        print(f"SKIP: {hipcc} not installed")
        return 77
    lists = read_names(names_file)
    beyond, not_em = lists.get("beyond-hip-5.2", {}), lists.get("not-emulated", {})
    emulated = lists.get("emulated-headers", {})
    tmp = tempfile.mkdtemp(prefix="tt-hipnames.")
    try:
        src = os.path.join(tmp, "names.hip")
        with open(src, "w") as f:
            f.write("#define TT_SIM_WARP 64\n" + "".join(f"#include <{h}>\n" for h in INCLUDES))
        real_cmd = [hipcc, "--offload-arch=gfx90a", "--cuda-device-only", "-w"]
        shim_cmd = [clang, "-x", "c++", "-std=gnu++20", "-I" + shim, "-w"]
        rdump = run(real_cmd + ["-fsyntax-only", "-Xclang", "-ast-dump", src])
        rpp = run(real_cmd + ["-E", "-dD", src])
        sdump = run(shim_cmd + ["-fsyntax-only", "-Xclang", "-ast-dump", src])
        spp = run(shim_cmd + ["-E", "-dD", src])
    finally:
        shutil.rmtree(tmp)
    in_shim = lambda p: os.path.realpath(p).startswith(shim + "/") if p else False
    every = lambda p: True
    real = public_decls(rdump, every) | macros(rpp, every)
    offered = {n for n in public_decls(sdump, in_shim) | macros(spp, in_shim)
               if not re.match(r"(tt_sim|TT_SIM)", n.split("::")[-1].lstrip("."))}
    bad = 0
    for n in sorted(offered - real):
        if n not in beyond:
            print(f"EXTRA {n}: the shim offers it, HIP 5.2's headers lack it"); bad += 1
    for n, why in sorted(beyond.items()):
        if n in real:
            print(f"STALE {n}: listed as beyond HIP 5.2, but HIP 5.2 has it"); bad += 1
        elif n not in offered:
            print(f"STALE {n}: listed as beyond HIP 5.2, but the shim does not offer it"); bad += 1
    want = set()
    for hdr in emulated:
        want |= public_decls(rdump, lambda p, h=hdr: p.endswith("/" + h)) | macros(rpp, lambda p, h=hdr: p.endswith("/" + h))
    for n in sorted(want - offered):
        if n not in not_em and not n.startswith("__hip_"):
            print(f"MISSING {n}: HIP 5.2 has it (an emulated header), the shim does not"); bad += 1
    for n in sorted(not_em):
        if n in offered:
            print(f"STALE {n}: listed as not emulated, but the shim offers it"); bad += 1
    print(f"{len(offered)} shim names, {len(real)} HIP 5.2 names, {len(beyond)} beyond 5.2, "
          f"{len(want)} names of emulated headers, {bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
