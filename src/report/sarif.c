/* SARIF 2.1.0, for code-scanning services: the rules that ran (with their help text),
 * results with regions, fixes as byte-range replacements, and the invocation. */
#include <string.h>

#include "report/json_util.h"
#include "report/report.h"

static const char *level(tt_severity s) {
  return s == TT_SEV_ERROR ? "error" : s == TT_SEV_WARNING ? "warning" : "note";
}

/* SARIF columns count Unicode code points (we declare columnKind so); ours count bytes. */
static json_int_t cp_column(const tt_source *src, tt_pos p) {
  uint32_t start = tt_source_line_start(src, p.line);
  json_int_t col = 1;
  for (uint32_t i = start; i < start + p.column - 1 && i < src->len; i++)
    if (((unsigned char)src->text[i] & 0xC0) != 0x80) col++;
  return col;
}

static json_t *rule_json(const tt_rule *rule) {
  json_t *j = json_pack("{s:s, s:s, s:{s:o}, s:{s:o}, s:{s:o, s:o}, s:{s:s}, s:{s:s, s:s, s:[s]}}", "id", rule->id,
                        "name", rule->id, "shortDescription", "text", tt_json_cstr(rule->summary),
                        "fullDescription", "text", tt_json_cstr(rule->summary), "help", "text",
                        tt_json_cstr(rule->explain), "markdown", tt_json_cstr(rule->explain),
                        "defaultConfiguration", "level", level(rule->severity), "properties", "category",
                        tt_category_name(rule->category), "target", rule->target, "tags",
                        tt_category_name(rule->category));
  if (rule->n_references) json_object_set_new(j, "helpUri", tt_json_cstr(rule->references[0]));
  return j;
}

static json_t *fix_json(const char *uri, const tt_finding *f) {
  json_t *repl = json_array();
  for (size_t i = 0; i < f->n_edits; i++)
    json_array_append_new(repl, json_pack("{s:{s:I, s:I}, s:{s:o}}", "deletedRegion", "byteOffset",
                                          (json_int_t)f->edits[i].start, "byteLength",
                                          (json_int_t)(f->edits[i].end - f->edits[i].start), "insertedContent",
                                          "text", tt_json_cstr(f->edits[i].replacement)));
  return json_pack("[{s:{s:o}, s:[{s:{s:o}, s:o}]}]", "description", "text", tt_json_cstr(f->fix_description),
                   "artifactChanges", "artifactLocation", "uri", tt_json_cstr(uri), "replacements", repl);
}

static size_t rule_index(const tt_rulebook *book, const tt_rule *rule) {
  for (size_t i = 0; i < book->n_rules; i++)
    if (book->rules[i] == rule) return i;
  return 0;
}

void tt_report_sarif(FILE *out, const tt_report *r) {
  json_t *rules = json_array(), *results = json_array(), *notifications = json_array();
  /* The rule table lists every rule of the book so ruleIndex is simply the book index. */
  for (size_t i = 0; i < r->book->n_rules; i++) json_array_append_new(rules, rule_json(r->book->rules[i]));
  for (size_t i = 0; i < r->n_files; i++) {
    const tt_file_result *fr = &r->files[i];
    if (fr->error) {
      json_array_append_new(notifications, json_pack("{s:s, s:{s:o}, s:[{s:{s:{s:o}}}]}", "level", "error",
                                                     "message", "text", tt_json_cstr(fr->error), "locations",
                                                     "physicalLocation", "artifactLocation", "uri",
                                                     tt_json_cstr(fr->path)));
      continue;
    }
    for (size_t k = 0; k < fr->findings.n; k++) {
      const tt_finding *f = &fr->findings.items[k];
      json_t *region = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "startLine", (json_int_t)f->start_pos.line,
                                 "startColumn", cp_column(fr->src, f->start_pos), "endLine",
                                 (json_int_t)f->end_pos.line, "endColumn", cp_column(fr->src, f->end_pos),
                                 "byteOffset", (json_int_t)f->start, "byteLength", (json_int_t)(f->end - f->start));
      json_t *res = json_pack("{s:s, s:I, s:s, s:{s:o}, s:[{s:{s:{s:o}, s:o}}]}", "ruleId", f->rule->id,
                              "ruleIndex", (json_int_t)rule_index(r->book, f->rule), "level", level(f->severity),
                              "message", "text", tt_json_cstr(f->message), "locations", "physicalLocation",
                              "artifactLocation", "uri", tt_json_cstr(fr->path), "region", region);
      if (f->has_fix) json_object_set_new(res, "fixes", fix_json(fr->path, f));
      json_array_append_new(results, res);
    }
  }
  json_t *invocation = json_pack("{s:b, s:i}", "executionSuccessful", r->exit_code < 2, "exitCode", r->exit_code);
  json_object_set_new(invocation, "toolExecutionNotifications", notifications);
  json_t *root = json_pack(
      "{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s, s:o}}, s:[o], s:s, s:o}]}", "$schema",
      "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0", "runs", "tool", "driver", "name",
      "tiletrans", "version", TT_VERSION, "informationUri", "https://github.com/tiletrans/tiletrans", "rules", rules,
      "invocations", invocation, "columnKind", "unicodeCodePoints", "results", results);
  tt_json_dump(out, root);
}
