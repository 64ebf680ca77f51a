/* test_report.c — JSON (parsed back with jansson), SARIF, GitHub, text, and unified
 * diffs (exact small cases, and `patch` round trips on larger ones). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/report.h"
#include "support.h"
#include "util/fs.h"
#include "util/util.h"

static char *refs[] = {"https://example.com/ref"};
static char *text_refs[] = {"llama.cpp issue #3630 (ROCm wave64)", "HIP guide, vote functions: https://example.com/v#b)."};
static tt_rule R_MASK = {.id = "hip-mask", .target = "hip", .summary = "32-bit mask", .explain = "Explain **mask**.",
                         .category = TT_CAT_MASK_WIDTH, .severity = TT_SEV_ERROR, .references = refs,
                         .n_references = 1};
static tt_rule R_WARP = {.id = "hip-warp", .target = "hip", .summary = "warp size 32", .explain = "Explain warp.",
                         .category = TT_CAT_WARP_SIZE, .severity = TT_SEV_WARNING};
static tt_rule R_NOTE = {.id = "hip-note", .target = "hip", .summary = "a note", .explain = "e",
                         .category = TT_CAT_API_MAPPING, .severity = TT_SEV_NOTE};
static tt_rule *BOOK_RULES[] = {&R_MASK, &R_NOTE, &R_WARP};
static tt_rulebook BOOK = {.rules = BOOK_RULES, .n_rules = 3};

static const char *const SRC =
    "__global__ void k(float v) {\n"
    "  v += __shfl_xor_sync(0xffffffff, v, 1);\n"
    "\tint lane = threadIdx.x % 32;\n"
    "}\n";

static tt_finding *add(tt_file_result *fr, const tt_rule *rule, const char *needle, size_t len, const char *msg) {
  const char *p = strstr(fr->src->text, needle);
  cr_assert_not_null(p, "%s", needle);
  TT_PUSH(fr->findings.items, fr->findings.n, fr->findings.cap, (tt_finding){0});
  tt_finding *f = &fr->findings.items[fr->findings.n - 1];
  f->rule = rule;
  f->severity = rule->severity;
  f->message = tt_xstrdup(msg);
  f->start = (uint32_t)(p - fr->src->text);
  f->end = f->start + (uint32_t)len;
  f->start_pos = tt_source_pos(fr->src, f->start);
  f->end_pos = tt_source_pos(fr->src, f->end);
  return f;
}

static void give_fix(tt_finding *f, const char *desc, const char *repl) {
  f->has_fix = true;
  f->fix_description = tt_xstrdup(desc);
  f->edits = tt_xcalloc(1, sizeof *f->edits);
  f->edits[0] = (tt_edit){f->start, f->end, tt_xstrdup(repl)};
  f->n_edits = 1;
}

typedef struct fx {
  tt_file_result files[2];
  tt_report rep;
} fx;

/* Two files: k.cu with three findings (one with a fix), and an unreadable one. */
static void setup(fx *x) {
  memset(x, 0, sizeof *x);
  tt_file_result *a = &x->files[0];
  a->path = tt_xstrdup("src/k.cu");
  a->src = tts_source("src/k.cu", SRC, TT_LANG_CUDA);
  tt_finding *m = add(a, &R_MASK, "0xffffffff", 10, "`0xffffffff` is a 32-bit mask");
  give_fix(m, "use a 64-bit mask", "0xffffffffffffffffull");
  add(a, &R_WARP, "32;", 2, "warp size 32");
  add(a, &R_NOTE, "__global__", 10, "a note");
  x->files[1].path = tt_xstrdup("gone.cu");
  x->files[1].error = tt_xstrdup("cannot open: No such file or directory");
  x->rep = (tt_report){.files = x->files, .n_files = 2, .book = &BOOK, .exit_code = 1};
}

static void teardown(fx *x) {
  tt_file_result_free(&x->files[0]);
  tt_file_result_free(&x->files[1]);
}

typedef void (*report_fn)(FILE *, const tt_report *);
typedef struct call {
  report_fn fn;
  const tt_report *rep;
} call;
static void run_call(FILE *out, void *ctx) {
  call *c = ctx;
  c->fn(out, c->rep);
}
static char *render(report_fn fn, const tt_report *rep) {
  call c = {fn, rep};
  return tts_capture(run_call, &c, NULL);
}

static json_t *parse(const char *text) {
  json_error_t e;
  json_t *j = json_loads(text, 0, &e);
  cr_assert_not_null(j, "invalid JSON (%s at line %d):\n%s", e.text, e.line, text);
  return j;
}

static json_int_t ival(json_t *o, const char *path) {
  json_t *v = json_object_get(o, path);
  cr_assert(json_is_integer(v), "`%s` is not an integer", path);
  return json_integer_value(v);
}
static const char *sval(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  cr_assert(json_is_string(v), "`%s` is not a string", key);
  return json_string_value(v);
}

/* --- JSON -------------------------------------------------------------------------- */

Test(report, json_contract) {
  fx x;
  setup(&x);
  char *out = render(tt_report_json, &x.rep);
  json_t *root = parse(out);
  json_t *tool = json_object_get(root, "tool");
  cr_expect_str_eq(sval(tool, "name"), "tiletrans");
  cr_expect_str_eq(sval(tool, "version"), TT_VERSION);
  json_t *fs = json_object_get(root, "findings");
  cr_assert(json_is_array(fs));
  cr_assert_eq(json_array_size(fs), 3u);
  json_t *f0 = json_array_get(fs, 0);
  cr_expect_str_eq(sval(f0, "rule_id"), "hip-mask");
  cr_expect_str_eq(sval(f0, "category"), "mask-width");
  cr_expect_str_eq(sval(f0, "severity"), "error");
  cr_expect_str_eq(sval(f0, "message"), "`0xffffffff` is a 32-bit mask");
  cr_expect_str_eq(sval(f0, "path"), "src/k.cu");
  json_t *range = json_object_get(f0, "range");
  json_t *st = json_object_get(range, "start"), *en = json_object_get(range, "end");
  cr_expect_eq(ival(st, "line"), 2);
  cr_expect_eq(ival(st, "column"), 24);
  cr_expect_eq(ival(en, "line"), 2);
  cr_expect_eq(ival(en, "column"), 34);
  json_t *fix = json_object_get(f0, "fix");
  cr_assert(json_is_object(fix));
  cr_expect_str_eq(sval(fix, "description"), "use a 64-bit mask");
  cr_expect_null(json_object_get(fix, "applied"), "`applied` only in rewrite reports");
  json_t *edits = json_object_get(fix, "edits");
  cr_assert_eq(json_array_size(edits), 1u);
  json_t *e0 = json_array_get(edits, 0);
  uint32_t mask_off = (uint32_t)(strstr(SRC, "0xffffffff") - SRC);
  cr_expect_eq(ival(e0, "start_byte"), mask_off);
  cr_expect_eq(ival(e0, "end_byte"), mask_off + 10);
  cr_expect_str_eq(sval(e0, "replacement"), "0xffffffffffffffffull");
  cr_expect_str_eq(sval(e0, "path"), "src/k.cu");
  /* A finding without a fix has "fix": null (present, not absent). */
  json_t *f1 = json_array_get(fs, 1);
  cr_expect_str_eq(sval(f1, "rule_id"), "hip-warp");
  cr_expect_str_eq(sval(f1, "severity"), "warning");
  cr_assert_not_null(json_object_get(f1, "fix"));
  cr_expect(json_is_null(json_object_get(f1, "fix")));
  cr_expect_eq(ival(json_object_get(json_object_get(f1, "range"), "start"), "column"), 27);
  cr_expect_str_eq(sval(json_array_get(fs, 2), "severity"), "note");
  json_t *sum = json_object_get(root, "summary");
  cr_expect_eq(ival(sum, "files"), 2);
  cr_expect_eq(ival(sum, "findings"), 3);
  cr_expect_eq(ival(sum, "error"), 1);
  cr_expect_eq(ival(sum, "warning"), 1);
  cr_expect_eq(ival(sum, "note"), 1);
  cr_expect_null(json_object_get(sum, "changed"));
  json_t *errs = json_object_get(root, "errors");
  cr_assert_eq(json_array_size(errs), 1u);
  cr_expect_str_eq(sval(json_array_get(errs, 0), "path"), "gone.cu");
  json_decref(root);
  free(out);
  teardown(&x);
}

Test(report, json_rewrite_fields) {
  fx x;
  setup(&x);
  x.rep.rewrite = true;
  x.files[0].findings.items[0].fix_status = TT_FIX_CONFLICT;
  x.files[0].changed = true;
  char *out = render(tt_report_json, &x.rep);
  json_t *root = parse(out);
  json_t *fix = json_object_get(json_array_get(json_object_get(root, "findings"), 0), "fix");
  cr_assert(json_is_boolean(json_object_get(fix, "applied")));
  cr_expect(json_is_false(json_object_get(fix, "applied")));
  cr_expect_eq(ival(json_object_get(root, "summary"), "changed"), 1);
  json_decref(root);
  free(out);
  teardown(&x);
}

Test(report, json_invalid_utf8_still_valid) {
  fx x;
  setup(&x);
  tt_finding *f = &x.files[0].findings.items[1];
  free(f->message);
  f->message = tt_xstrdup("bad \xff\xfe bytes \xc3 and ok \xc3\xa9 \xe2\x82");
  free(x.files[0].path);
  x.files[0].path = tt_xstrdup("src/\xffk.cu");
  char *out = render(tt_report_json, &x.rep);
  json_t *root = parse(out);
  const char *msg = sval(json_array_get(json_object_get(root, "findings"), 1), "message");
  cr_expect(strstr(msg, "bad \xEF\xBF\xBD") == msg, "invalid bytes become U+FFFD: %s", msg);
  cr_expect(strstr(msg, "ok \xc3\xa9") != NULL, "valid UTF-8 kept: %s", msg);
  cr_expect(strstr(sval(json_array_get(json_object_get(root, "findings"), 1), "path"), "\xEF\xBF\xBD") != NULL);
  json_decref(root);
  free(out);
  /* SARIF too. */
  out = render(tt_report_sarif, &x.rep);
  root = parse(out);
  json_decref(root);
  free(out);
  teardown(&x);
}

/* --- SARIF ------------------------------------------------------------------------- */

Test(report, sarif_contract) {
  fx x;
  setup(&x);
  char *out = render(tt_report_sarif, &x.rep);
  json_t *root = parse(out);
  cr_expect(strstr(sval(root, "$schema"), "/sarif-schema-2.1.0.json") != NULL);
  cr_expect_str_eq(sval(root, "version"), "2.1.0");
  json_t *run = json_array_get(json_object_get(root, "runs"), 0);
  cr_assert_not_null(run);
  json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
  cr_expect_str_eq(sval(driver, "name"), "tiletrans");
  json_t *rules = json_object_get(driver, "rules");
  cr_assert_eq(json_array_size(rules), 3u);
  cr_expect_str_eq(sval(json_array_get(rules, 0), "id"), "hip-mask");
  cr_expect_str_eq(sval(json_array_get(rules, 1), "id"), "hip-note");
  cr_expect_str_eq(sval(json_array_get(rules, 2), "id"), "hip-warp");
  cr_expect_str_eq(sval(json_array_get(rules, 0), "helpUri"), "https://example.com/ref");
  cr_expect_str_eq(sval(json_object_get(json_array_get(rules, 0), "defaultConfiguration"), "level"), "error");
  json_t *results = json_object_get(run, "results");
  cr_assert_eq(json_array_size(results), 3u);
  json_t *r0 = json_array_get(results, 0);
  cr_expect_str_eq(sval(r0, "ruleId"), "hip-mask");
  cr_expect_eq(ival(r0, "ruleIndex"), 0);
  cr_expect_str_eq(sval(r0, "level"), "error");
  cr_expect_str_eq(sval(json_object_get(r0, "message"), "text"), "`0xffffffff` is a 32-bit mask");
  json_t *loc = json_object_get(json_array_get(json_object_get(r0, "locations"), 0), "physicalLocation");
  cr_expect_str_eq(sval(json_object_get(loc, "artifactLocation"), "uri"), "src/k.cu");
  json_t *region = json_object_get(loc, "region");
  cr_expect_eq(ival(region, "startLine"), 2);
  cr_expect_eq(ival(region, "startColumn"), 24);
  cr_expect_eq(ival(region, "endLine"), 2);
  cr_expect_eq(ival(region, "endColumn"), 34);
  json_t *fixes = json_object_get(r0, "fixes");
  cr_assert_eq(json_array_size(fixes), 1u);
  json_t *fix0 = json_array_get(fixes, 0);
  cr_expect_str_eq(sval(json_object_get(fix0, "description"), "text"), "use a 64-bit mask");
  json_t *change = json_array_get(json_object_get(fix0, "artifactChanges"), 0);
  cr_expect_str_eq(sval(json_object_get(change, "artifactLocation"), "uri"), "src/k.cu");
  json_t *rep0 = json_array_get(json_object_get(change, "replacements"), 0);
  uint32_t mask_off = (uint32_t)(strstr(SRC, "0xffffffff") - SRC);
  cr_expect_eq(ival(json_object_get(rep0, "deletedRegion"), "byteOffset"), mask_off);
  cr_expect_eq(ival(json_object_get(rep0, "deletedRegion"), "byteLength"), 10);
  cr_expect_str_eq(sval(json_object_get(rep0, "insertedContent"), "text"), "0xffffffffffffffffull");
  json_t *r1 = json_array_get(results, 1);
  cr_expect_str_eq(sval(r1, "ruleId"), "hip-warp");
  cr_expect_eq(ival(r1, "ruleIndex"), 2);
  cr_expect_str_eq(sval(r1, "level"), "warning");
  cr_expect_null(json_object_get(r1, "fixes"));
  cr_expect_str_eq(sval(json_array_get(results, 2), "level"), "note");
  json_t *inv = json_array_get(json_object_get(run, "invocations"), 0);
  cr_assert_not_null(inv);
  cr_expect_eq(ival(inv, "exitCode"), 1);
  cr_expect(json_is_true(json_object_get(inv, "executionSuccessful")));
  json_t *notes = json_object_get(inv, "toolExecutionNotifications");
  cr_assert_eq(json_array_size(notes), 1u, "the unreadable file is a notification");
  json_decref(root);
  free(out);
  teardown(&x);
}

Test(report, sarif_columns_count_code_points) {
  fx x;
  memset(&x, 0, sizeof x);
  tt_file_result *a = &x.files[0];
  a->path = tt_xstrdup("u.cu");
  a->src = tts_source("u.cu", "int a;\n/* \xc3\xa9\xe2\x82\xac */ f(32);\n", TT_LANG_CUDA);
  tt_finding *f = add(a, &R_WARP, "32", 2, "m");
  cr_assert_eq(f->start_pos.column, 15u, "bytes: 15");
  x.rep = (tt_report){.files = x.files, .n_files = 1, .book = &BOOK};
  char *out = render(tt_report_sarif, &x.rep);
  json_t *root = parse(out);
  json_t *run = json_array_get(json_object_get(root, "runs"), 0);
  cr_expect_str_eq(sval(run, "columnKind"), "unicodeCodePoints");
  json_t *region = json_object_get(
      json_object_get(json_array_get(json_object_get(json_array_get(json_object_get(run, "results"), 0), "locations"), 0),
                      "physicalLocation"),
      "region");
  cr_expect_eq(ival(region, "startColumn"), 12, "é (2 bytes) and € (3 bytes) count one each");
  cr_expect_eq(ival(region, "endColumn"), 14);
  json_decref(root);
  free(out);
  tt_file_result_free(a);
}

Test(report, sarif_names_help_uris_fingerprints_suppressions) {
  fx x;
  setup(&x);
  R_WARP.references = text_refs;
  R_WARP.n_references = 2;
  /* A suppressed finding is kept, with its suppression; two findings of one rule on
   * lines with the same text get distinct fingerprints. */
  tt_file_result *a = &x.files[0];
  tt_finding *dup = add(a, &R_MASK, "0xffffffff", 10, "again");
  TT_PUSH(a->suppressed.items, a->suppressed.n, a->suppressed.cap, *dup);
  a->findings.n--;
  char *out = render(tt_report_sarif, &x.rep);
  R_WARP.references = NULL;
  R_WARP.n_references = 0;
  json_t *root = parse(out);
  json_t *run = json_array_get(json_object_get(root, "runs"), 0);
  json_t *rules = json_object_get(json_object_get(json_object_get(run, "tool"), "driver"), "rules");
  cr_expect_str_eq(sval(json_array_get(rules, 0), "name"), "HipMask", "a name distinct from the id");
  cr_expect_str_eq(sval(json_array_get(rules, 2), "helpUri"), "https://example.com/v#b",
                   "the URI inside a reference, not the reference's text");
  cr_expect_null(json_object_get(json_array_get(rules, 1), "helpUri"), "no URI: no helpUri");
  json_t *results = json_object_get(run, "results");
  cr_assert_eq(json_array_size(results), 4u);
  json_t *last = json_array_get(results, 3);
  cr_expect_str_eq(sval(json_array_get(json_object_get(last, "suppressions"), 0), "kind"), "inSource");
  cr_expect_null(json_object_get(json_array_get(results, 0), "suppressions"));
  const char *p0 = sval(json_object_get(json_array_get(results, 0), "partialFingerprints"), "tiletrans/v1");
  const char *p3 = sval(json_object_get(last, "partialFingerprints"), "tiletrans/v1");
  cr_expect(strlen(p0) > 17 && strcmp(p0, p3) != 0, "%s vs %s", p0, p3);
  cr_expect(strncmp(p0, p3, 16) == 0, "same rule and line text: same hash, another rank: %s vs %s", p0, p3);
  json_decref(root);
  free(out);
  teardown(&x);
}

Test(report, sarif_exit_code_2_unsuccessful) {
  fx x;
  setup(&x);
  x.rep.exit_code = 2;
  char *out = render(tt_report_sarif, &x.rep);
  json_t *root = parse(out);
  json_t *inv = json_array_get(json_object_get(json_array_get(json_object_get(root, "runs"), 0), "invocations"), 0);
  cr_expect(json_is_false(json_object_get(inv, "executionSuccessful")));
  json_decref(root);
  free(out);
  teardown(&x);
}

/* --- GitHub ------------------------------------------------------------------------ */

Test(report, github_lines_and_escaping) {
  fx x;
  setup(&x);
  free(x.files[0].path);
  x.files[0].path = tt_xstrdup("dir,1/a:b%c.cu");
  tt_finding *f = &x.files[0].findings.items[1];
  free(f->message);
  f->message = tt_xstrdup("100% bad: a, b\nsecond\rline");
  char *out = render(tt_report_github, &x.rep);
  cr_expect(strstr(out, "::error file=dir%2C1/a%3Ab%25c.cu,line=2,col=24,endLine=2,endColumn=34,title=hip-mask::"
                        "`0xffffffff` is a 32-bit mask%0Afix: use a 64-bit mask\n") != NULL,
            "mask line in:\n%s", out);
  cr_expect(strstr(out, "::warning file=dir%2C1/a%3Ab%25c.cu,line=3,col=27,endLine=3,endColumn=29,title=hip-warp::"
                        "100%25 bad: a, b%0Asecond%0Dline\n") != NULL,
            "warning line with `%%`, newline and CR escaped, `:` and `,` kept in the message:\n%s", out);
  cr_expect(strstr(out, "::notice file=") != NULL, "notes are notices:\n%s", out);
  cr_expect(strstr(out, "::error file=gone.cu::cannot open: No such file or directory\n") != NULL, "%s", out);
  /* One line per finding and per file error, then the summary. */
  cr_expect_eq(tts_count_substr(out, "\n::"), 3u, "%s", out);
  cr_expect_eq(tts_count_substr(out, "\n"), 5u, "%s", out);
  cr_expect(strstr(out, "\ntiletrans: 3 findings (1 error, 1 warning, 1 note) in 1 of 2 files\n") != NULL, "%s", out);
  free(out);
  teardown(&x);
}

Test(report, github_columns_characters_and_multiline) {
  fx x;
  memset(&x, 0, sizeof x);
  tt_file_result *a = &x.files[0];
  a->path = tt_xstrdup("u.cu");
  a->src = tts_source("u.cu", "int a;\n/* \xc3\xa9\xe2\x82\xac */ f(32);\nint b = g(1,\n  2);\n", TT_LANG_CUDA);
  add(a, &R_WARP, "32", 2, "m");
  tt_finding *m = add(a, &R_NOTE, "g(1,", 1, "spans");
  m->end = m->start + (uint32_t)strlen("g(1,\n  2)");
  m->end_pos = tt_source_pos(a->src, m->end);
  x.rep = (tt_report){.files = x.files, .n_files = 1, .book = &BOOK};
  char *out = render(tt_report_github, &x.rep);
  cr_expect(strstr(out, "::warning file=u.cu,line=2,col=12,endLine=2,endColumn=14,title=hip-warp::m\n") != NULL,
            "columns count characters (é and € one each):\n%s", out);
  cr_expect(strstr(out, "::notice file=u.cu,line=3,endLine=4,title=hip-note::spans\n") != NULL,
            "no col/endColumn across lines:\n%s", out);
  free(out);
  tt_file_result_free(a);
}

Test(report, github_max_annotations_caps_each_kind) {
  fx x;
  setup(&x);
  for (int i = 0; i < 4; i++) add(&x.files[0], &R_MASK, "0xffffffff", 2, "again");
  x.rep.max_annotations = 2;
  char *out = render(tt_report_github, &x.rep);
  cr_expect_eq(tts_count_substr(out, "::error "), 2u, "errors capped at 2:\n%s", out);
  cr_expect_eq(tts_count_substr(out, "::warning "), 1u, "%s", out);
  cr_expect(strstr(out, "; 4 not annotated (--max-annotations 2: 4 errors, 0 warnings, 0 notices)\n") != NULL,
            "the summary says what the cap left out:\n%s", out);
  free(out);
  teardown(&x);
}

/* --- text -------------------------------------------------------------------------- */

Test(report, text_format) {
  fx x;
  setup(&x);
  char *out = render(tt_report_text, &x.rep);
  const char *want_mask =
      "src/k.cu:2:24: error: `0xffffffff` is a 32-bit mask [hip-mask]\n"
      "    2 |   v += __shfl_xor_sync(0xffffffff, v, 1);\n"
      "      |                        ^~~~~~~~~~\n" /* 23 spaces: column 24 */
      "      = fix: use a 64-bit mask\n";
  cr_expect(strstr(out, want_mask) != NULL, "expected:\n%s\nin:\n%s", want_mask, out);
  /* A tab before the range is kept so the caret lines up. */
  const char *want_warp =
      "src/k.cu:3:27: warning: warp size 32 [hip-warp]\n"
      "    3 | \tint lane = threadIdx.x % 32;\n"
      "      | \t                         ^~\n"; /* a tab then 25 spaces: column 27 */
  cr_expect(strstr(out, want_warp) != NULL, "expected:\n%s\nin:\n%s", want_warp, out);
  cr_expect(strstr(out, "src/k.cu:1:1: note: a note [hip-note]\n") != NULL, "%s", out);
  cr_expect(strstr(out, "gone.cu") == NULL, "input errors go to stderr (the command prints them):\n%s", out);
  cr_expect(strstr(out, "3 findings (1 error, 1 warning, 1 note) in 1 of 2 files\n") != NULL, "%s", out);
  cr_expect(strstr(out, "\033[") == NULL, "no color unless asked");
  free(out);
  teardown(&x);
}

Test(report, text_crlf_and_multiline_range) {
  fx x;
  memset(&x, 0, sizeof x);
  tt_file_result *a = &x.files[0];
  a->path = tt_xstrdup("w.cu");
  a->src = tts_source("w.cu", "int a;\r\nint b = f(1,\r\n  2);\r\n", TT_LANG_CUDA);
  add(a, &R_WARP, "f(1,", 14, "spans lines");
  x.rep = (tt_report){.files = x.files, .n_files = 1, .book = &BOOK};
  char *out = render(tt_report_text, &x.rep);
  const char *want =
      "w.cu:2:9: warning: spans lines [hip-warp]\n"
      "    2 | int b = f(1,\n"
      "      |         ^~~~\n";
  cr_expect(strstr(out, want) != NULL, "expected:\n%s\nin:\n%s", want, out);
  cr_expect(strchr(out, '\r') == NULL, "no CR in the output");
  cr_expect(strstr(out, "1 finding (0 errors, 1 warning, 0 notes) in 1 of 1 file\n") != NULL, "%s", out);
  free(out);
  tt_file_result_free(a);
}

Test(report, text_rewrite_status) {
  fx x;
  setup(&x);
  x.rep.rewrite = true;
  x.files[0].findings.items[0].fix_status = TT_FIX_SYNTAX_ERROR;
  char *out = render(tt_report_text, &x.rep);
  cr_expect(strstr(out, "= fix: use a 64-bit mask (not applied: inside code that failed to parse)\n") != NULL, "%s",
            out);
  free(out);
  teardown(&x);
}

Test(report, format_parse) {
  tt_format f;
  cr_expect_eq(tt_format_parse("json", &f), 0);
  cr_expect_eq(f, TT_FMT_JSON);
  cr_expect_eq(tt_format_parse("sarif", &f), 0);
  cr_expect_eq(f, TT_FMT_SARIF);
  cr_expect_eq(tt_format_parse("github", &f), 0);
  cr_expect_eq(f, TT_FMT_GITHUB);
  cr_expect_eq(tt_format_parse("text", &f), 0);
  cr_expect_eq(f, TT_FMT_TEXT);
  cr_expect_eq(tt_format_parse("xml", &f), -1);
}

/* --- diffs ------------------------------------------------------------------------- */

typedef struct dargs {
  const char *a, *b;
  size_t alen, blen;
} dargs;
static void run_diff(FILE *out, void *ctx) {
  dargs *d = ctx;
  tt_diff_unified(out, "a/f.cu", "b/f.cu", d->a, d->alen, d->b, d->blen);
}
static char *diff_of(const char *a, size_t alen, const char *b, size_t blen) {
  dargs d = {a, b, alen, blen};
  return tts_capture(run_diff, &d, NULL);
}
static void expect_diff(const char *a, const char *b, const char *hunks) {
  char *got = diff_of(a, strlen(a), b, strlen(b));
  char *want = *hunks ? tt_xasprintf("--- a/f.cu\n+++ b/f.cu\n%s", hunks) : tt_xstrdup("");
  cr_expect_str_eq(got, want, "diff of\n%s\n---- and\n%s\n---- got:\n%s\n---- want:\n%s", a, b, got, want);
  free(got);
  free(want);
}

static char *numbered(int n, int changed1, int changed2) {
  tt_buf b = {0};
  for (int i = 1; i <= n; i++) {
    if (i == changed1 || i == changed2) tt_buf_printf(&b, "L%d changed\n", i);
    else tt_buf_printf(&b, "L%d\n", i);
  }
  return tt_buf_steal(&b);
}

Test(diff, equal_texts_print_nothing) {
  expect_diff("a\nb\n", "a\nb\n", "");
  expect_diff("", "", "");
}

Test(diff, one_change_in_the_middle) {
  expect_diff("a\nb\nc\n", "a\nB\nc\n", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
}

Test(diff, change_at_first_line) {
  expect_diff("x\ny\nz\nw\nv\n", "X\ny\nz\nw\nv\n", "@@ -1,4 +1,4 @@\n-x\n+X\n y\n z\n w\n");
}

Test(diff, change_at_last_line_without_newline) {
  expect_diff("1\n2\n3\n4\n5", "1\n2\n3\n4\n6",
              "@@ -2,4 +2,4 @@\n 2\n 3\n 4\n-5\n\\ No newline at end of file\n+6\n\\ No newline at end of file\n");
  expect_diff("1\n2", "1\n2\n", "@@ -1,2 +1,2 @@\n 1\n-2\n\\ No newline at end of file\n+2\n");
}

Test(diff, insert_and_delete) {
  expect_diff("", "x\n", "@@ -0,0 +1,1 @@\n+x\n");
  expect_diff("x\n", "", "@@ -1,1 +0,0 @@\n-x\n");
  expect_diff("a\nb\n", "a\nnew\nb\n", "@@ -1,2 +1,3 @@\n a\n+new\n b\n");
}

Test(diff, distant_changes_two_hunks) {
  char *a = numbered(20, 0, 0), *b = numbered(20, 2, 18);
  expect_diff(a, b,
              "@@ -1,5 +1,5 @@\n L1\n-L2\n+L2 changed\n L3\n L4\n L5\n"
              "@@ -15,6 +15,6 @@\n L15\n L16\n L17\n-L18\n+L18 changed\n L19\n L20\n");
  free(a);
  free(b);
}

Test(diff, nearby_changes_one_hunk) {
  /* Six unchanged lines between (3 + 3 context): one hunk. */
  char *a = numbered(20, 0, 0), *b = numbered(20, 5, 12);
  expect_diff(a, b,
              "@@ -2,14 +2,14 @@\n L2\n L3\n L4\n-L5\n+L5 changed\n L6\n L7\n L8\n L9\n L10\n L11\n-L12\n+L12 changed\n"
              " L13\n L14\n L15\n");
  free(a);
  free(b);
  /* Seven unchanged lines between: two hunks. */
  a = numbered(20, 0, 0);
  b = numbered(20, 5, 13);
  expect_diff(a, b,
              "@@ -2,7 +2,7 @@\n L2\n L3\n L4\n-L5\n+L5 changed\n L6\n L7\n L8\n"
              "@@ -10,7 +10,7 @@\n L10\n L11\n L12\n-L13\n+L13 changed\n L14\n L15\n L16\n");
  free(a);
  free(b);
}

/* A small deterministic PRNG. */
static uint32_t rnd(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

static bool run_patch(const char *dir, const char *old, size_t oldlen, const char *diff, char **result, size_t *rlen) {
  char *of = tt_fs_join(dir, "old.txt"), *df = tt_fs_join(dir, "d.patch"), *nf = tt_fs_join(dir, "new.txt");
  FILE *f = fopen(of, "wb");
  fwrite(old, 1, oldlen, f);
  fclose(f);
  tts_write(df, diff);
  char *cmd = tt_xasprintf("/usr/bin/patch -s -f -o '%s' '%s' < '%s' > /dev/null 2>&1", nf, of, df);
  int st = system(cmd);
  bool ok = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
  *result = ok ? tts_slurp(nf, rlen) : NULL;
  unlink(nf);
  free(cmd);
  free(of);
  free(df);
  free(nf);
  return ok && *result;
}

Test(diff, patch_round_trip) {
  char *dir = tts_tmpdir();
  uint32_t seed = 12345;
  for (int iter = 0; iter < 40; iter++) {
    /* Old: 30-150 lines from a small vocabulary (so lines repeat). */
    tt_buf a = {0}, b = {0};
    int n = 30 + (int)(rnd(&seed) % 120);
    for (int i = 0; i < n; i++) tt_buf_printf(&a, "line %u\n", rnd(&seed) % 12);
    if (iter % 3 == 0 && a.len) a.len--, a.data[a.len] = '\0'; /* no final newline */
    /* New: copy with random deletions, insertions and changes. */
    const char *p = a.data;
    while (*p) {
      const char *nl = strchr(p, '\n');
      size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
      uint32_t r = rnd(&seed) % 100;
      if (r < 8) {
        /* delete */
      } else if (r < 16) {
        tt_buf_printf(&b, "inserted %u\n", rnd(&seed) % 5);
        tt_buf_append(&b, p, len);
      } else if (r < 24) {
        tt_buf_printf(&b, "changed %u%s", rnd(&seed) % 7, nl ? "\n" : "");
      } else {
        tt_buf_append(&b, p, len);
      }
      p += len;
    }
    if (iter % 4 == 1) tt_buf_puts(&b, "tail without newline");
    const char *bt = b.data ? b.data : "";
    char *d = diff_of(a.data, a.len, bt, b.len);
    if (a.len == b.len && memcmp(a.data, bt, a.len) == 0) {
      cr_expect_str_eq(d, "");
    } else {
      char *res = NULL;
      size_t rlen = 0;
      bool ok = run_patch(dir, a.data, a.len, d, &res, &rlen);
      cr_expect(ok, "iteration %d: patch rejected the diff:\n%s", iter, d);
      if (ok) {
        cr_expect(rlen == b.len && memcmp(res, bt, rlen) == 0, "iteration %d: patched text differs\n--- diff:\n%s", iter,
                  d);
      }
      free(res);
    }
    free(d);
    tt_buf_free(&a);
    tt_buf_free(&b);
  }
  tts_rmrf(dir);
  free(dir);
}

Test(diff, completely_different_texts) {
  char *dir = tts_tmpdir();
  const char *a = "a\nb\nc\n", *b = "x\ny\n";
  char *d = diff_of(a, strlen(a), b, strlen(b));
  char *res = NULL;
  size_t rlen;
  cr_assert(run_patch(dir, a, strlen(a), d, &res, &rlen), "%s", d);
  cr_expect_eq(rlen, strlen(b));
  cr_expect(memcmp(res, b, rlen) == 0);
  cr_expect(strstr(d, "@@ -1,3 +1,2 @@\n") != NULL, "%s", d);
  free(res);
  free(d);
  tts_rmrf(dir);
  free(dir);
}
