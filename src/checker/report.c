/* report.c — see report.h. JSON goes through jansson: never hand-escaped. */
#include "checker/report.h"

#include <jansson.h>
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
