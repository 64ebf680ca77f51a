/* The JSON report: the contract in DESIGN.md ("JSON output of lint"), plus fields the
 * contract allows to grow: `errors` (input errors), `summary.suppressed` (lint and rewrite, when some
 * finding was silenced by tiletrans-ignore), `suppression_problems`, `fix.applied` (rewrite). */
#include "report/json_util.h"
#include "report/report.h"

static json_t *fix_json(const char *path, const tt_finding *f, bool rewrite) {
  if (!f->has_fix) return json_null();
  json_t *edits = json_array();
  for (size_t i = 0; i < f->n_edits; i++) {
    const tt_edit *e = &f->edits[i];
    json_array_append_new(edits, json_pack("{s:o, s:I, s:I, s:o}", "path", tt_json_cstr(path), "start_byte",
                                           (json_int_t)e->start, "end_byte", (json_int_t)e->end, "replacement",
                                           tt_json_cstr(e->replacement)));
  }
  json_t *fix = json_pack("{s:o, s:o}", "description", tt_json_cstr(f->fix_description), "edits", edits);
  if (rewrite) json_object_set_new(fix, "applied", json_boolean(f->fix_status == TT_FIX_APPLIED));
  return fix;
}

static json_t *pos_json(tt_pos p) {
  return json_pack("{s:I, s:I}", "line", (json_int_t)p.line, "column", (json_int_t)p.column);
}

void tt_report_json(FILE *out, const tt_report *r) {
  json_t *findings = json_array(), *errors = json_array(), *problems = json_array();
  json_int_t counts[3] = {0}, changed = 0, suppressed = 0, unconfirmed = 0;
  for (size_t i = 0; i < r->n_files; i++) {
    const tt_file_result *fr = &r->files[i];
    if (fr->error) {
      json_array_append_new(errors, json_pack("{s:o, s:o}", "path", tt_json_cstr(fr->path), "message",
                                              tt_json_cstr(fr->error)));
      continue;
    }
    changed += fr->changed;
    suppressed += (json_int_t)fr->suppressed.n;
    for (size_t k = 0; k < fr->sup_issues.n; k++) {
      const tt_suppress_issue *is = &fr->sup_issues.items[k];
      json_array_append_new(problems, json_pack("{s:o, s:I, s:I, s:s, s:o}", "path", tt_json_cstr(fr->path), "line",
                                                (json_int_t)is->line, "column", (json_int_t)is->column, "severity",
                                                tt_severity_name(TT_SUPPRESS_ISSUE_SEVERITY), "message",
                                                tt_json_cstr(is->message)));
    }
    for (size_t k = 0; k < fr->findings.n; k++) {
      const tt_finding *f = &fr->findings.items[k];
      counts[f->severity]++;
      json_t *fj =
          json_pack("{s:s, s:s, s:s, s:o, s:o, s:{s:o, s:o}, s:o}", "rule_id", f->rule->id, "category",
                    tt_category_name(f->rule->category), "severity", tt_severity_name(f->severity), "message",
                    tt_json_cstr(f->message), "path", tt_json_cstr(fr->path), "range", "start",
                    pos_json(f->start_pos), "end", pos_json(f->end_pos), "fix", fix_json(fr->path, f, r->rewrite));
      /* Added field (DESIGN.md's contract is kept): present only on a finding that the
       * semantic layer could not confirm, with the reason. */
      if (f->unconfirmed) {
        json_object_set_new(fj, "unconfirmed", tt_json_cstr(f->unconfirmed));
        unconfirmed++;
      }
      json_array_append_new(findings, fj);
    }
  }
  json_t *summary = json_pack("{s:I, s:I, s:I, s:I, s:I}", "files", (json_int_t)r->n_files, "findings",
                              counts[0] + counts[1] + counts[2], "error", counts[2], "warning", counts[1], "note",
                              counts[0]);
  if (r->rewrite) json_object_set_new(summary, "changed", json_integer(changed));
  /* Only when some finding was silenced, so clean outputs keep the contract's shape. */
  if (suppressed) json_object_set_new(summary, "suppressed", json_integer(suppressed));
  if (unconfirmed) json_object_set_new(summary, "unconfirmed", json_integer(unconfirmed));
  json_t *root = json_pack("{s:{s:s, s:s}, s:o, s:o}", "tool", "name", "tiletrans", "version", TT_VERSION,
                           "findings", findings, "summary", summary);
  if (json_array_size(errors)) json_object_set_new(root, "errors", errors);
  else json_decref(errors);
  /* tiletrans-ignore comments that name no rule or suppress nothing (lint only). */
  if (json_array_size(problems)) json_object_set_new(root, "suppression_problems", problems);
  else json_decref(problems);
  tt_json_dump(out, root);
}
