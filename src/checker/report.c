/* report.c — see report.h. JSON goes through jansson: never hand-escaped. */
#include "checker/report.h"

#include <jansson.h>
#include <libxml/xmlwriter.h>
#include <math.h>
#include <string.h>

#ifndef TT_VERSION
#define TT_VERSION "0.1.0"
#endif

typedef struct {
  size_t by_verdict[5];
} tally_t;

static tally_t tally(const tt_check_result *r, size_t n) {
  tally_t t = {{0}};
  for (size_t i = 0; i < n; i++) t.by_verdict[r[i].status]++;
  return t;
}

/* Totals over a check's outputs: the worst errors, the summed mismatches. */
static void totals(const tt_check_result *r, double *abs_err, double *rel_err, size_t *bad, size_t *count) {
  *abs_err = *rel_err = 0;
  *bad = *count = 0;
  for (size_t i = 0; i < r->noutputs; i++) {
    if (r->outputs[i].max_abs_err > *abs_err) *abs_err = r->outputs[i].max_abs_err;
    if (r->outputs[i].max_rel_err > *rel_err) *rel_err = r->outputs[i].max_rel_err;
    *bad += r->outputs[i].mismatches;
    *count += r->outputs[i].count;
  }
}

static int width(const char *s, int w) {
  int n = (int)strlen(s);
  return n > w ? n : w;
}

void tt_check_report_text(FILE *f, const tt_check_result *r, size_t n, double total_s) {
  int wn = 4, wr = 9, wc = 9;
  for (size_t i = 0; i < n; i++) {
    wn = width(r[i].name, wn);
    wr = width(r[i].reference.semantics, wr);
    wc = width(r[i].candidate.semantics, wc);
  }
  fprintf(f, "%-*s  %-7s  %-*s  %-*s  %-14s  %11s  %11s  %15s  %8s\n", wn, "NAME", "BACKEND", wr,
          "REFERENCE", wc, "CANDIDATE", "VERDICT", "MAX-ABS-ERR", "MAX-REL-ERR", "MISMATCHES", "TIME");
  for (size_t i = 0; i < n; i++) {
    const tt_check_result *c = &r[i];
    char ae[32] = "-", re[32] = "-", mm[48] = "-", tm[32];
    if (c->noutputs) {
      double a, rl;
      size_t bad, cnt;
      totals(c, &a, &rl, &bad, &cnt);
      snprintf(ae, sizeof ae, "%.3g", a);
      snprintf(re, sizeof re, "%.3g", rl);
      snprintf(mm, sizeof mm, "%zu/%zu", bad, cnt);
    }
    snprintf(tm, sizeof tm, "%.2fs", c->time_s);
    fprintf(f, "%-*s  %-7s  %-*s  %-*s  %-14s  %11s  %11s  %15s  %8s\n", wn, c->name,
            tt_check_backend_name(c->backend), wr, c->reference.semantics, wc, c->candidate.semantics,
            tt_check_verdict_name(c->status), ae, re, mm, tm);
  }
  int any = 0;
  for (size_t i = 0; i < n; i++) {
    if (!r[i].message) continue;
    if (!any++) fputc('\n', f);
    /* Indent continuation lines so multi-line sim reports stay readable. */
    fprintf(f, "%s: %s: ", r[i].name, tt_check_verdict_name(r[i].status));
    for (const char *p = r[i].message; *p; p++) {
      fputc(*p, f);
      if (*p == '\n') fputs("    ", f);
    }
    fputc('\n', f);
  }
  tally_t t = tally(r, n);
  fprintf(f, "\n%zu check%s: %zu passed, %zu mismatched, %zu translate-failed, %zu build-failed, "
             "%zu run-failed (%.2fs)\n",
          n, n == 1 ? "" : "s", t.by_verdict[TT_CHECK_PASS], t.by_verdict[TT_CHECK_MISMATCH],
          t.by_verdict[TT_CHECK_TRANSLATE_FAIL], t.by_verdict[TT_CHECK_BUILD_FAIL],
          t.by_verdict[TT_CHECK_RUN_FAIL], total_s);
}

static json_t *num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

/* Seconds to the millisecond: finer digits are noise. */
static json_t *secs(double v) {
  return num(round(v * 1000) / 1000);
}

static json_t *side_json(const tt_check_side *s) {
  return json_pack("{s:s, s:i, s:o, s:s, s:o}",
                   "semantics", s->semantics ? s->semantics : "",
                   "warp", s->warp,
                   "source", s->source ? json_string(s->source) : json_null(),
                   "build", !s->built ? "none" : s->cached ? "cached" : "built",
                   "run_s", secs(s->run_s));
}

int tt_check_report_json(FILE *f, const tt_check_result *r, size_t n, double total_s) {
  json_t *checks = json_array();
  if (!checks) return -1;
  for (size_t i = 0; i < n; i++) {
    const tt_check_result *c = &r[i];
    json_t *outs = json_array();
    for (size_t k = 0; k < c->noutputs; k++) {
      const tt_check_output *o = &c->outputs[k];
      json_array_append_new(outs, json_pack("{s:s, s:o, s:o, s:I, s:I}", "name", o->name,
                                            "max_abs_err", num(o->max_abs_err),
                                            "max_rel_err", num(o->max_rel_err),
                                            "mismatches", (json_int_t)o->mismatches,
                                            "count", (json_int_t)o->count));
    }
    json_t *obj = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o}",
                            "name", c->name, "spec", c->spec,
                            "status", tt_check_verdict_name(c->status),
                            "backend", tt_check_backend_name(c->backend),
                            "reference", side_json(&c->reference),
                            "candidate", side_json(&c->candidate),
                            "outputs", outs ? outs : json_array(),
                            "message", c->message ? json_string(c->message) : json_null(),
                            "time_s", secs(c->time_s));
    if (!obj) {
      json_decref(checks);
      return -1;
    }
    json_array_append_new(checks, obj);
  }
  tally_t t = tally(r, n);
  json_t *doc = json_pack("{s:{s:s, s:s}, s:o, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:o}}",
                          "tool", "name", "tiletrans", "version", TT_VERSION,
                          "checks", checks,
                          "summary",
                          "checks", (json_int_t)n,
                          "pass", (json_int_t)t.by_verdict[TT_CHECK_PASS],
                          "mismatch", (json_int_t)t.by_verdict[TT_CHECK_MISMATCH],
                          "translate_fail", (json_int_t)t.by_verdict[TT_CHECK_TRANSLATE_FAIL],
                          "build_fail", (json_int_t)t.by_verdict[TT_CHECK_BUILD_FAIL],
                          "run_fail", (json_int_t)t.by_verdict[TT_CHECK_RUN_FAIL],
                          "time_s", secs(total_s));
  if (!doc) return -1;
  /* 9 significant digits: enough for any f32 error, without %.17g noise. */
  int rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9)) == 0 ? 0 : -1;
  fputc('\n', f);
  json_decref(doc);
  return rc;
}

/* --- JUnit XML ----------------------------------------------------------------------- */

static int is_failure(tt_check_verdict v) { return v == TT_CHECK_MISMATCH || v == TT_CHECK_RUN_FAIL; }
static int is_error(tt_check_verdict v) { return v == TT_CHECK_TRANSLATE_FAIL || v == TT_CHECK_BUILD_FAIL; }

/* Every xmlTextWriter call returns < 0 on failure; `ok` collects them. */
typedef struct xw {
  xmlTextWriterPtr w;
  int ok;
} xw;

static void x_start(xw *x, const char *el) { x->ok &= xmlTextWriterStartElement(x->w, BAD_CAST el) >= 0; }
static void x_end(xw *x) { x->ok &= xmlTextWriterEndElement(x->w) >= 0; }
static void x_attr(xw *x, const char *name, const char *value) {
  x->ok &= xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST(value ? value : "")) >= 0;
}
static void x_attrf(xw *x, const char *name, const char *fmt, double v) {
  char buf[64];
  snprintf(buf, sizeof buf, fmt, v);
  x_attr(x, name, buf);
}
static void x_text(xw *x, const char *text) { x->ok &= xmlTextWriterWriteString(x->w, BAD_CAST text) >= 0; }

static void x_property(xw *x, const char *name, const char *value) {
  x_start(x, "property");
  x_attr(x, "name", name);
  x_attr(x, "value", value);
  x_end(x);
}

static void junit_case(xw *x, const tt_check_result *c) {
  char cls[64], buf[96], key[256];
  snprintf(cls, sizeof cls, "tiletrans.check.%s", tt_check_backend_name(c->backend));
  x_start(x, "testcase");
  x_attr(x, "name", c->name);
  x_attr(x, "classname", cls);
  x_attr(x, "file", c->spec);
  x_attrf(x, "time", "%.3f", c->time_s);
  x_start(x, "properties");
  x_property(x, "verdict", tt_check_verdict_name(c->status));
  x_property(x, "reference", c->reference.semantics);
  x_property(x, "candidate", c->candidate.semantics);
  for (size_t k = 0; k < c->noutputs; k++) {
    const tt_check_output *o = &c->outputs[k];
    snprintf(key, sizeof key, "output.%s.max_abs_err", o->name);
    snprintf(buf, sizeof buf, "%.9g", o->max_abs_err);
    x_property(x, key, buf);
    snprintf(key, sizeof key, "output.%s.max_rel_err", o->name);
    snprintf(buf, sizeof buf, "%.9g", o->max_rel_err);
    x_property(x, key, buf);
    snprintf(key, sizeof key, "output.%s.mismatches", o->name);
    snprintf(buf, sizeof buf, "%zu/%zu", o->mismatches, o->count);
    x_property(x, key, buf);
  }
  x_end(x);
  if (is_failure(c->status) || is_error(c->status)) {
    x_start(x, is_failure(c->status) ? "failure" : "error");
    x_attr(x, "type", tt_check_verdict_name(c->status));
    const char *m = c->message ? c->message : tt_check_verdict_name(c->status);
    size_t first = strcspn(m, "\n");
    char *head = strndup(m, first);
    x_attr(x, "message", head ? head : "");
    free(head);
    x_text(x, m);
    x_end(x);
  }
  x_end(x);
}

int tt_check_report_junit(FILE *f, const tt_check_result *r, size_t n, double total_s) {
  xmlBufferPtr buf = xmlBufferCreate();
  xw x = {buf ? xmlNewTextWriterMemory(buf, 0) : NULL, 1};
  if (!x.w) {
    if (buf) xmlBufferFree(buf);
    return -1;
  }
  size_t fails = 0, errors = 0;
  for (size_t i = 0; i < n; i++) {
    fails += is_failure(r[i].status);
    errors += is_error(r[i].status);
  }
  xmlTextWriterSetIndent(x.w, 1);
  xmlTextWriterSetIndentString(x.w, BAD_CAST "  ");
  x.ok &= xmlTextWriterStartDocument(x.w, NULL, "UTF-8", NULL) >= 0;
  x_start(&x, "testsuites");
  x_attr(&x, "name", "tiletrans check");
  x_attrf(&x, "tests", "%.0f", (double)n);
  x_attrf(&x, "failures", "%.0f", (double)fails);
  x_attrf(&x, "errors", "%.0f", (double)errors);
  x_attrf(&x, "time", "%.3f", total_s);
  x_start(&x, "testsuite");
  x_attr(&x, "name", "tiletrans check");
  x_attrf(&x, "tests", "%.0f", (double)n);
  x_attrf(&x, "failures", "%.0f", (double)fails);
  x_attrf(&x, "errors", "%.0f", (double)errors);
  x_attr(&x, "skipped", "0");
  x_attrf(&x, "time", "%.3f", total_s);
  for (size_t i = 0; i < n; i++) junit_case(&x, &r[i]);
  x.ok &= xmlTextWriterEndDocument(x.w) >= 0;
  xmlFreeTextWriter(x.w);
  int rc = x.ok && fwrite(buf->content, 1, (size_t)buf->use, f) == (size_t)buf->use ? 0 : -1;
  xmlBufferFree(buf);
  return rc;
}

/* --- Markdown ------------------------------------------------------------------------ */

/* Text for a GFM table cell: `|` escaped, HTML-significant characters as entities,
 * line breaks as spaces. */
static void md_cell(FILE *f, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '|': fputs("\\|", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '\\': case '`': case '*': case '_': case '[': case ']': fputc('\\', f); fputc(*s, f); break;
    case '\n': case '\r': fputc(' ', f); break;
    default: fputc(*s, f);
    }
  }
}

/* A code fence longer than the longest run of backticks in `text` (CommonMark). */
static size_t fence_len(const char *text) {
  size_t best = 0, run = 0;
  for (const char *p = text; *p; p++) {
    run = *p == '`' ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best < 3 ? 3 : best + 1;
}

static const char *verdict_mark(tt_check_verdict v) { return v == TT_CHECK_PASS ? "✅" : "❌"; }

void tt_check_report_markdown(FILE *f, const tt_check_result *r, size_t n, double total_s) {
  tally_t t = tally(r, n);
  fprintf(f, "### tiletrans check: %zu of %zu passed\n\n", t.by_verdict[TT_CHECK_PASS], n);
  fputs("| Check | Verdict | Reference | Candidate | Max abs err | Max rel err | Mismatches | Time |\n"
        "|---|---|---|---|--:|--:|--:|--:|\n", f);
  for (size_t i = 0; i < n; i++) {
    const tt_check_result *c = &r[i];
    fputs("| ", f);
    md_cell(f, c->name);
    fprintf(f, " | %s %s | ", verdict_mark(c->status), tt_check_verdict_name(c->status));
    md_cell(f, c->reference.semantics);
    fputs(" | ", f);
    md_cell(f, c->candidate.semantics);
    if (c->noutputs) {
      double a, rl;
      size_t bad, cnt;
      totals(c, &a, &rl, &bad, &cnt);
      fprintf(f, " | %.3g | %.3g | %zu/%zu", a, rl, bad, cnt);
    } else {
      fputs(" | – | – | –", f);
    }
    fprintf(f, " | %.2f s |\n", c->time_s);
  }
  fprintf(f, "\n%zu passed, %zu mismatched, %zu translate-failed, %zu build-failed, %zu run-failed in %.2f s\n",
          t.by_verdict[TT_CHECK_PASS], t.by_verdict[TT_CHECK_MISMATCH], t.by_verdict[TT_CHECK_TRANSLATE_FAIL],
          t.by_verdict[TT_CHECK_BUILD_FAIL], t.by_verdict[TT_CHECK_RUN_FAIL], total_s);
  for (size_t i = 0; i < n; i++) {
    if (!r[i].message || r[i].status == TT_CHECK_PASS) continue;
    size_t k = fence_len(r[i].message);
    fputs("\n<details><summary>", f);
    md_cell(f, r[i].name);
    fprintf(f, ": %s</summary>\n\n", tt_check_verdict_name(r[i].status));
    for (size_t j = 0; j < k; j++) fputc('`', f);
    fputs("text\n", f);
    fputs(r[i].message, f);
    fputc('\n', f);
    for (size_t j = 0; j < k; j++) fputc('`', f);
    fputs("\n\n</details>\n", f);
  }
}
