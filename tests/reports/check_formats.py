#!/usr/bin/env python3
"""`tiletrans check --format junit` and `--format markdown`, validated by parsers.

Three checks of a vector add: the port tiletrans makes (PASS), a candidate that
subtracts (MISMATCH, a JUnit <failure>), one that does not compile (BUILD-FAIL, an
<error>). The spec names hold characters that XML and Markdown tables must escape.
  - JUnit: parsed with xml.etree; the structure (testsuites/testsuite/testcase,
    counts, classname, file, time, properties with each output's error figures,
    failure/error with the verdict as type) is asserted.
  - Markdown: rendered with cmark-gfm (GitHub's renderer, table extension) and the
    HTML parsed: one table, a header and one row per check, 8 cells each, the names
    intact; each message that is not PASS in a <details> block.
Usage: check_formats.py PATH/TO/tiletrans SOURCE_DIR"""
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

tt, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
work = tempfile.mkdtemp(prefix="tt-formats-")
failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


kernel_dir = os.path.join(src, "corpus/cuda/vector_add")
shutil.copy(os.path.join(kernel_dir, "vector_add.cu"), work)
spec_text = open(os.path.join(kernel_dir, "check.yaml")).read()
ref = open(os.path.join(work, "vector_add.cu")).read()
open(os.path.join(work, "minus.hip"), "w").write(ref.replace("c[i] = a[i] + b[i];", "c[i] = a[i] - b[i];"))
open(os.path.join(work, "broken.hip"), "w").write(ref.replace("c[i] = a[i] + b[i];", "c[i] = a[i] + ;"))
cases = {  # spec file -> (name in the spec, candidate line, verdict)
    "a.check.yaml": ('"add | <ok> & fine"', "", "PASS"),
    "b.check.yaml": ('"minus_`x`"', "candidate: minus.hip\n", "MISMATCH"),
    "c.check.yaml": ('"broken"', "candidate: broken.hip\n", "BUILD-FAIL"),
}
names = {"a.check.yaml": "add | <ok> & fine", "b.check.yaml": "minus_`x`", "c.check.yaml": "broken"}
for f, (name, cand, _) in cases.items():
    text = spec_text.replace("name: vector_add", "name: " + name, 1)
    text = text.replace("source: vector_add.cu\n", "source: vector_add.cu\n" + cand, 1)
    open(os.path.join(work, f), "w").write(text)
specs = [os.path.join(work, f) for f in sorted(cases)]
env = dict(os.environ, TILETRANS_CACHE_DIR=os.path.join(work, "cache"), NO_COLOR="1")


def run(fmt):
    p = subprocess.run([tt, "check", "-j", "2", "--format", fmt] + specs, capture_output=True, text=True, env=env)
    check(p.returncode == 1, f"--format {fmt}: exit 1 (not every check PASS), got {p.returncode}: {p.stderr[-500:]}")
    return p.stdout


# --- JUnit -------------------------------------------------------------------------
root = ET.fromstring(run("junit").encode())
check(root.tag == "testsuites", "root element is <testsuites>")
suites = root.findall("testsuite")
check(len(suites) == 1, "one <testsuite>")
suite = suites[0]
cases_el = suite.findall("testcase")
check(len(cases_el) == 3, "one <testcase> per spec")
for el in (root, suite):
    check((el.get("tests"), el.get("failures"), el.get("errors")) == ("3", "1", "1"),
          f"<{el.tag}> counts tests=3 failures=1 errors=1: {el.attrib}")
    check(float(el.get("time")) > 0, f"<{el.tag}> has a time")
by_name = {c.get("name"): c for c in cases_el}
check(set(by_name) == set(names.values()), f"test case names survive escaping: {sorted(by_name)}")
for f, (_, _, verdict) in cases.items():
    c = by_name.get(names[f])
    if c is None:
        continue
    check(c.get("classname") == "tiletrans.check.sim", f"{f}: classname")
    check(c.get("file") == os.path.join(work, f), f"{f}: file is the spec path")
    check(float(c.get("time")) >= 0, f"{f}: time")
    props = {p.get("name"): p.get("value") for p in c.findall("properties/property")}
    check(props.get("verdict") == verdict, f"{f}: verdict property {props.get('verdict')} == {verdict}")
    failure, error = c.find("failure"), c.find("error")
    if verdict == "PASS":
        check(failure is None and error is None, f"{f}: PASS has no failure or error")
        check(props.get("output.c.max_abs_err") == "0" and props.get("output.c.mismatches") == "0/100003",
              f"{f}: error figures of output c: {props}")
    elif verdict == "MISMATCH":
        check(failure is not None and failure.get("type") == "MISMATCH", f"{f}: MISMATCH is a <failure type=MISMATCH>")
        check(float(props.get("output.c.max_abs_err", "0")) > 0.1, f"{f}: max_abs_err of c is reported: {props}")
        mm = props.get("output.c.mismatches", "0/0").split("/")
        check(int(mm[0]) > 0 and mm[1] == "100003", f"{f}: mismatches of c: {mm}")
        check(bool(failure is not None and failure.get("message")), f"{f}: failure has a message")
    else:
        check(error is not None and error.get("type") == "BUILD-FAIL", f"{f}: BUILD-FAIL is an <error type=BUILD-FAIL>")
        check(error is not None and "broken.hip" in (error.text or ""), f"{f}: the error text names the file")

# --- Markdown ----------------------------------------------------------------------
md = run("markdown")
html_out = subprocess.run(["cmark-gfm", "--unsafe", "-e", "table"], input=md, capture_output=True, text=True, check=True).stdout


class Cells(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.rows, self.cell, self.details, self.h3 = 0, [], None, 0, ""
        self.in_h3 = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables += 1
        elif tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = ""
        elif tag == "details":
            self.details += 1
        elif tag == "h3":
            self.in_h3 = True

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.rows[-1].append(self.cell.strip())
            self.cell = None
        elif tag == "h3":
            self.in_h3 = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        if self.in_h3:
            self.h3 += data


p = Cells()
p.feed(html_out)
check(p.tables == 1, "markdown: one table")
check("1 of 3 passed" in p.h3, f"markdown: heading with the tally: {p.h3!r}")
check(len(p.rows) == 4, f"markdown: header and one row per check ({len(p.rows)} rows)")
check(all(len(r) == 8 for r in p.rows), f"markdown: 8 cells in every row: {[len(r) for r in p.rows]}")
first = sorted(r[0] for r in p.rows[1:])
check(first == sorted(names.values()), f"markdown: names intact in the first column: {first}")
verdicts = {r[0]: r[1] for r in p.rows[1:]}
check(verdicts.get(names["b.check.yaml"], "").endswith("MISMATCH"), f"markdown: MISMATCH row: {verdicts}")
check(p.details == 2, f"markdown: the two messages in <details> blocks ({p.details})")

# --- exit codes of the new options -------------------------------------------------
for args, want in ((["--format", "xml"], 2), (["--memory-limit", "0"], 2), (["--memory-limit", "4X"], 2),
                   (["--sandbox", "maybe"], 2), (["--memory-limit", "8G", "--sandbox", "off", "--format", "junit"], 0)):
    p = subprocess.run([tt, "check"] + args + [specs[0]], capture_output=True, text=True, env=env)
    check(p.returncode == want, f"check {' '.join(args)}: exit {p.returncode}, expected {want} {p.stderr[-300:]}")
    if want == 2:
        check(args[0] in p.stderr, f"check {' '.join(args)}: the error names {args[0]}")
# A harness over its memory limit is a RUN-FAIL, not a hang or a crash of tiletrans:
# 20M floats need 80 MB a buffer, the limit is 64 MB (the harness itself loads in less).
big = os.path.join(work, "big.check.yaml")
open(big, "w").write(spec_text.replace("n: 100003", "n: 20000000", 1))
p = subprocess.run([tt, "check", "--memory-limit", "64M", "--format", "junit", big], capture_output=True,
                   text=True, env=env)
check(p.returncode == 1, f"check --memory-limit 64M: exit {p.returncode}, expected 1")
err = ET.fromstring(p.stdout.encode()).find("testsuite/testcase/failure")
check(err is not None and err.get("type") == "RUN-FAIL", "a harness over its memory limit is RUN-FAIL")

shutil.rmtree(work, ignore_errors=True)
print(f"{'FAILED' if failures else 'passed'}: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
