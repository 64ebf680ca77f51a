/* SARIF 2.1.0, for code-scanning services (GitHub code scanning among them): the rules
 * that ran (with their help text), results with regions, fixes as byte-range
 * replacements, suppressed findings with their suppression, and the invocation.
 *
 * Artifact URIs are relative to the source root (`--srcroot`, SRCROOT in
 * originalUriBaseIds) and percent-encoded, so results match the repository's files
 * wherever the tool ran; a file outside the root gets an absolute file: URI. The output
 * validates against the official schema (tests/cli/schema/). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report/json_util.h"
#include "report/report.h"
#include "util/util.h"

#define SARIF_SCHEMA "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
#define BASE_ID "SRCROOT"

static const char *level(tt_severity s) {
  return s == TT_SEV_ERROR ? "error" : s == TT_SEV_WARNING ? "warning" : "note";
}

/* RFC 3986 percent-encoding of a path: unreserved characters and '/' stay. */
static void put_encoded(tt_buf *b, const char *path) {
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
      tt_buf_putc(b, (char)*p);
    else
      tt_buf_printf(b, "%%%02X", *p);
  }
}

/* An absolute URI: a scheme (RFC 3986: ALPHA *(ALPHA / DIGIT / "+" / "-" / ".")), a
 * colon, then no space, control or other character a URI cannot hold. */
static bool is_uri(const char *s) {
  const char *p = s;
  if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) return false;
  while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("+-.", *p)) p++;
  if (*p != ':' || !p[1]) return false;
  for (p++; *p; p++)
    if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f || strchr("\"<>\\^`{|}", *p)) return false;
  return true;
}

/* The first absolute http(s) URI written in `text` (up to a blank; closing punctuation
 * dropped), or NULL. Caller frees. */
static char *uri_in(const char *text) {
  for (const char *p = text; (p = strstr(p, "://")); p += 3) {
    const char *s = p;
    while (s > text && ((s[-1] >= 'a' && s[-1] <= 'z') || (s[-1] >= 'A' && s[-1] <= 'Z'))) s--;
    const char *e = p + 3;
    while (*e && *e != ' ' && *e != '\t' && *e != '\n') e++;
    while (e > p + 3 && strchr(").,;:'\"", e[-1])) e--;
    char *u = tt_xstrndup(s, (size_t)(e - s));
    if ((strncmp(u, "http", 4) == 0 || strncmp(u, "file", 4) == 0) && is_uri(u)) return u;
    free(u);
  }
  return NULL;
}

/* The artifact location of `path`: relative to `root` (an absolute folder) with the
 * SRCROOT base when inside it, else an absolute file: URI. New reference. */
static json_t *artifact_location(const char *root, const char *path) {
  char abs[PATH_MAX];
  tt_buf b = {0};
  json_t *loc;
  size_t n = root ? strlen(root) : 0;
  if (strcmp(path, "<stdin>") != 0 && realpath(path, abs)) {
    if (root && strncmp(abs, root, n) == 0 && (abs[n] == '/' || (n == 1 && root[0] == '/'))) {
      put_encoded(&b, abs + n + (abs[n] == '/'));
      loc = json_pack("{s:s, s:s}", "uri", b.data, "uriBaseId", BASE_ID);
    } else {
      tt_buf_puts(&b, "file://");
      put_encoded(&b, abs);
      loc = json_pack("{s:s}", "uri", b.data);
    }
  } else {
    put_encoded(&b, path);
    loc = json_pack("{s:s}", "uri", b.data);
  }
  tt_buf_free(&b);
  return loc;
}

/* "hip-ballot-32bit" → "HipBallot32bit": the readable name SARIF viewers show beside
 * the id (which must differ from it). */
static char *rule_name(const char *id) {
  tt_buf b = {0};
  bool up = true;
  for (const char *p = id; *p; p++) {
    if (*p == '-' || *p == '_') {
      up = true;
      continue;
    }
    tt_buf_putc(&b, up && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p);
    up = false;
  }
  return tt_buf_steal(&b);
}

static json_t *rule_json(const tt_rule *rule) {
  char *name = rule_name(rule->id);
  json_t *j = json_pack("{s:s, s:s, s:{s:o}, s:{s:o}, s:{s:o, s:o}, s:{s:s}, s:{s:s, s:s, s:[s]}}", "id", rule->id,
                        "name", name, "shortDescription", "text", tt_json_cstr(rule->summary), "fullDescription",
                        "text", tt_json_cstr(rule->summary), "help", "text", tt_json_cstr(rule->explain), "markdown",
                        tt_json_cstr(rule->explain), "defaultConfiguration", "level", level(rule->severity),
                        "properties", "category", tt_category_name(rule->category), "target", rule->target, "tags",
                        tt_category_name(rule->category));
  free(name);
  /* helpUri must be an absolute URI: the first one a reference holds ("Title: URL"),
   * else none. */
  for (size_t i = 0; i < rule->n_references; i++) {
    char *uri = uri_in(rule->references[i]);
    if (uri) {
      json_object_set_new(j, "helpUri", json_string(uri));
      free(uri);
      break;
    }
  }
  return j;
}

static json_t *fix_json(json_t *loc, const tt_finding *f) {
  json_t *repl = json_array();
  for (size_t i = 0; i < f->n_edits; i++)
    json_array_append_new(repl, json_pack("{s:{s:I, s:I}, s:{s:o}}", "deletedRegion", "byteOffset",
                                          (json_int_t)f->edits[i].start, "byteLength",
                                          (json_int_t)(f->edits[i].end - f->edits[i].start), "insertedContent",
                                          "text", tt_json_cstr(f->edits[i].replacement)));
  return json_pack("[{s:{s:o}, s:[{s:o, s:o}]}]", "description", "text", tt_json_cstr(f->fix_description),
                   "artifactChanges", "artifactLocation", loc, "replacements", repl);
}

static size_t rule_index(const tt_rulebook *book, const tt_rule *rule) {
  for (size_t i = 0; i < book->n_rules; i++)
    if (book->rules[i] == rule) return i;
  return 0;
}

/* 64-bit FNV-1a: a fingerprint only needs to be stable and well spread. */
static uint64_t fnv1a(uint64_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
  return h;
}

/* A result's identity across runs: rule, file and the text of its line without the
 * surrounding blanks (so it survives edits elsewhere and re-indentation), plus its
 * rank among the results of the file with the same three. */
typedef struct print_key {
  uint64_t hash;
  size_t index;
} print_key;

static int cmp_key(const void *a, const void *b) {
  const print_key *x = a, *y = b;
  if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* One "hash:rank" string per finding of the file, its findings then its suppressed
 * ones (n log n). Caller frees each and the array. */
static char **fingerprints(const tt_file_result *fr) {
  size_t total = fr->findings.n + fr->suppressed.n;
  print_key *keys = tt_xcalloc(total + 1, sizeof *keys);
  for (size_t k = 0; k < total; k++) {
    const tt_finding *f = k < fr->findings.n ? &fr->findings.items[k] : &fr->suppressed.items[k - fr->findings.n];
    uint32_t n;
    const char *line = tt_source_line(fr->src, f->start_pos.line, &n);
    while (n && (*line == ' ' || *line == '\t')) line++, n--;
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\t')) n--;
    uint64_t h = 0xcbf29ce484222325ULL;
    h = fnv1a(h, f->rule->id, strlen(f->rule->id) + 1);
    h = fnv1a(h, fr->path, strlen(fr->path) + 1);
    keys[k] = (print_key){fnv1a(h, line, n), k};
  }
  qsort(keys, total, sizeof *keys, cmp_key);
  char **out = tt_xcalloc(total + 1, sizeof *out);
  for (size_t k = 0, rank = 0; k < total; k++) {
    rank = k && keys[k].hash == keys[k - 1].hash ? rank + 1 : 1;
    out[keys[k].index] = tt_xasprintf("%016llx:%zu", (unsigned long long)keys[k].hash, rank);
  }
  free(keys);
  return out;
}

static json_t *result_json(const tt_report *r, const tt_file_result *fr, json_t *loc, const tt_finding *f,
                           const char *print, bool suppressed) {
  json_t *region = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "startLine", (json_int_t)f->start_pos.line,
                             "startColumn", (json_int_t)tt_report_char_column(fr->src, f->start_pos), "endLine",
                             (json_int_t)f->end_pos.line, "endColumn",
                             (json_int_t)tt_report_char_column(fr->src, f->end_pos), "byteOffset",
                             (json_int_t)f->start, "byteLength", (json_int_t)(f->end - f->start));
  json_t *res = json_pack("{s:s, s:I, s:s, s:{s:o}, s:[{s:{s:O, s:o}}], s:o}", "ruleId", f->rule->id, "ruleIndex",
                          (json_int_t)rule_index(r->book, f->rule), "level", level(f->severity), "message", "text",
                          tt_json_cstr(f->message), "locations", "physicalLocation", "artifactLocation", loc, "region",
                          region, "partialFingerprints", json_pack("{s:s}", "tiletrans/v1", print));
  if (f->has_fix) json_object_set_new(res, "fixes", fix_json(json_deep_copy(loc), f));
  if (suppressed)
    json_object_set_new(res, "suppressions",
                        json_pack("[{s:s, s:s}]", "kind", "inSource", "justification", "tiletrans-ignore comment"));
  return res;
}

static json_t *notification(const char *lvl, const char *msg, json_t *loc, const tt_source *src,
                            const tt_suppress_issue *at) {
  json_t *phys = json_pack("{s:o}", "artifactLocation", loc);
  if (at)
    json_object_set_new(phys, "region",
                        json_pack("{s:I, s:I}", "startLine", (json_int_t)at->line, "startColumn",
                                  (json_int_t)tt_report_char_column(src, (tt_pos){at->line, at->column})));
  return json_pack("{s:s, s:{s:o}, s:[{s:o}]}", "level", lvl, "message", "text", tt_json_cstr(msg), "locations",
                   "physicalLocation", phys);
}

void tt_report_sarif(FILE *out, const tt_report *r) {
  json_t *rules = json_array(), *results = json_array(), *notifications = json_array();
  char root[PATH_MAX];
  const char *srcroot = r->srcroot && realpath(r->srcroot, root) ? root : (realpath(".", root) ? root : NULL);
  /* The rule table lists every rule of the book so ruleIndex is simply the book index. */
  for (size_t i = 0; i < r->book->n_rules; i++) json_array_append_new(rules, rule_json(r->book->rules[i]));
  for (size_t i = 0; i < r->n_files; i++) {
    const tt_file_result *fr = &r->files[i];
    json_t *loc = artifact_location(srcroot, fr->path);
    if (fr->error) {
      json_array_append_new(notifications, notification("error", fr->error, loc, NULL, NULL));
      continue;
    }
    char **prints = fingerprints(fr);
    for (size_t k = 0; k < fr->findings.n + fr->suppressed.n; k++) {
      bool sup = k >= fr->findings.n;
      const tt_finding *f = sup ? &fr->suppressed.items[k - fr->findings.n] : &fr->findings.items[k];
      json_array_append_new(results, result_json(r, fr, loc, f, prints[k], sup));
      free(prints[k]);
    }
    free(prints);
    for (size_t k = 0; k < fr->sup_issues.n; k++)
      json_array_append_new(notifications, notification("warning", fr->sup_issues.items[k].message,
                                                        json_deep_copy(loc), fr->src, &fr->sup_issues.items[k]));
    json_decref(loc);
  }
  json_t *invocation = json_pack("{s:b, s:i}", "executionSuccessful", r->exit_code < 2, "exitCode", r->exit_code);
  json_object_set_new(invocation, "toolExecutionNotifications", notifications);
  tt_buf base = {0};
  tt_buf_puts(&base, "file://");
  if (srcroot) put_encoded(&base, srcroot);
  if (!base.len || base.data[base.len - 1] != '/') tt_buf_putc(&base, '/');
  json_t *run = json_pack("{s:{s:{s:s, s:s, s:s, s:o}}, s:[o], s:{s:{s:s}}, s:s, s:o}", "tool", "driver", "name",
                          "tiletrans", "version", TT_VERSION, "informationUri",
                          "https://github.com/tiletrans/tiletrans", "rules", rules, "invocations", invocation,
                          "originalUriBaseIds", BASE_ID, "uri", base.data, "columnKind", "unicodeCodePoints",
                          "results", results);
  tt_buf_free(&base);
  tt_json_dump(out, json_pack("{s:s, s:s, s:[o]}", "$schema", SARIF_SCHEMA, "version", "2.1.0", "runs", run));
}
