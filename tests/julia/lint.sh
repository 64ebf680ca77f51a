#!/bin/sh
# Julia lint golden tests over corpus/cutile:
#   every wrong translation corpus/cutile/*/wrong/*.jl with a `# lint: RULE@LINE[:COL] ...`
#   line gets those findings (each rule on its line, and column where given; a note
#   counts: some pitfalls are only a question the code cannot answer), and no other
#   error;
#   every correct translation (corpus/cutile/*/*.jl and the rewrite goldens
#   tests/julia/expected/*.jl) has no error and no warning finding.
#   a wrong translation whose pitfall no static rule can see says why on a
#   `# lint-undetectable: REASON` line instead, and gets no error finding;
#   a wrong translation with neither line fails (every planted pitfall is judged).
# usage: lint.sh TILETRANS SOURCE_DIR
set -u
tt=$1
src=$2
cd "$src" || exit 2
work=$(mktemp -d "${TMPDIR:-/tmp}/tt-jllint.XXXXXX")
trap 'rm -rf "$work"' EXIT
timeout 300 "$tt" lint --target julia --format json --fail-on never corpus/cutile tests/julia/expected \
  </dev/null >"$work/lint.json" 2>"$work/err" || { echo "FAIL: lint exited $?"; cat "$work/err"; exit 1; }
python3 - "$work/lint.json" corpus/cutile/*/wrong/*.jl -- corpus/cutile/*/*.jl tests/julia/expected/*.jl <<'PY'
import json, re, sys
args = sys.argv[2:]
cut = args.index("--")
wrong, right = args[:cut], args[cut + 1:]
found = {}
for f in json.load(open(sys.argv[1]))["findings"]:
    s = f["range"]["start"]
    found.setdefault(f["path"], []).append((f["rule_id"], s["line"], s["column"], f["severity"], f["message"]))
fail = checked = 0
def bad(msg):
    global fail
    fail += 1
    print("FAIL " + msg)
for path in wrong:
    text = open(path).read()
    m = re.search(r"^# lint:(.*)$", text, re.M)
    got = found.get(path, [])
    if not m:
        u = re.search(r"^# lint-undetectable:\s*(\S.*)$", text, re.M)
        if not u:
            bad(f"{path}: neither a `# lint:` line nor a `# lint-undetectable: REASON` line")
            continue
        checked += 1
        for g in got:
            if g[3] == "error":
                bad(f"{path}:{g[1]}:{g[2]}: error {g[0]} on a file marked lint-undetectable: {g[4]}")
        continue
    checked += 1
    want = m.group(1).split()
    left = list(got)
    for w in want:
        wm = re.fullmatch(r"([a-z0-9-]+)@(\d+)(?::(\d+))?", w)
        if not wm:
            bad(f"{path}: bad `# lint:` entry {w!r}")
            continue
        rule, line, col = wm.group(1), int(wm.group(2)), wm.group(3)
        hit = [g for g in left if g[0] == rule and g[1] == line and (col is None or g[2] == int(col))]
        if not hit:
            bad(f"{path}: no {rule} finding at {line}{':' + col if col else ''}; got {got}")
        else:
            left.remove(hit[0])
    for g in left:
        if g[3] == "error":
            bad(f"{path}:{g[1]}:{g[2]}: unexpected error {g[0]}: {g[4]}")
for path in right:
    checked += 1
    for g in found.get(path, []):
        if g[3] == "note":
            continue
        bad(f"{path}:{g[1]}:{g[2]}: {g[3]} {g[0]} on a correct translation: {g[4]}")
print(f"lint: {checked} files judged, {fail} failures")
sys.exit(1 if fail else 0)
PY
