/* GitHub Actions workflow commands: `::error file=…,line=…::message`. Escaping follows
 * the Actions toolkit: in data `%`, CR and LF; in properties also `:` and `,`. */
#include "report/report.h"

static void put_escaped(FILE *out, const char *s, bool property) {
  for (; *s; s++) {
    switch (*s) {
    case '%': fputs("%25", out); break;
    case '\r': fputs("%0D", out); break;
    case '\n': fputs("%0A", out); break;
    case ':': property ? fputs("%3A", out) : fputc(':', out); break;
    case ',': property ? fputs("%2C", out) : fputc(',', out); break;
    default: fputc(*s, out);
    }
  }
}

static void put_location(FILE *out, const tt_file_result *fr, tt_pos start, tt_pos end) {
  fputs("file=", out);
  put_escaped(out, fr->path, true);
  /* GitHub renders col/endColumn only within one line, and counts characters. */
  if (start.line == end.line)
    fprintf(out, ",line=%u,col=%u,endLine=%u,endColumn=%u", start.line, tt_report_char_column(fr->src, start),
            end.line, tt_report_char_column(fr->src, end));
  else
    fprintf(out, ",line=%u,endLine=%u", start.line, end.line);
}

/* Notes per command kind (error, warning, notice): written, and left out by the cap. */
typedef struct gh_counts {
  size_t written[3], dropped[3];
  size_t cap;
} gh_counts;

static int kind_of(tt_severity s) { return s == TT_SEV_ERROR ? 0 : s == TT_SEV_WARNING ? 1 : 2; }
static const char *const kind_name[] = {"error", "warning", "notice"};

/* True when another note of this kind may be written (counting it either way). */
static bool take(gh_counts *c, int kind) {
  if (c->cap && c->written[kind] >= c->cap) {
    c->dropped[kind]++;
    return false;
  }
  c->written[kind]++;
  return true;
}

static void put_finding(FILE *out, const tt_file_result *fr, const tt_finding *f) {
  fprintf(out, "::%s ", kind_name[kind_of(f->severity)]);
  put_location(out, fr, f->start_pos, f->end_pos);
  fputs(",title=", out);
  put_escaped(out, f->rule->id, true);
  fputs("::", out);
  put_escaped(out, f->message, false);
  if (f->has_fix) {
    put_escaped(out, "\nfix: ", false);
    put_escaped(out, f->fix_description, false);
  }
  fputc('\n', out);
}

static void put_issue(FILE *out, const tt_file_result *fr, const tt_suppress_issue *is) {
  tt_pos p = {is->line, is->column};
  fprintf(out, "::%s ", kind_name[kind_of(TT_SUPPRESS_ISSUE_SEVERITY)]);
  put_location(out, fr, p, p);
  fputs(",title=tiletrans-ignore::", out);
  put_escaped(out, is->message, false);
  fputc('\n', out);
}

void tt_report_github(FILE *out, const tt_report *r) {
  gh_counts c = {.cap = r->max_annotations};
  size_t sev[3] = {0}, files_with = 0;
  for (size_t i = 0; i < r->n_files; i++) {
    const tt_file_result *fr = &r->files[i];
    if (fr->error) {
      if (!take(&c, 0)) continue;
      fputs("::error file=", out);
      put_escaped(out, fr->path, true);
      fputs("::", out);
      put_escaped(out, fr->error, false);
      fputc('\n', out);
      continue;
    }
    files_with += fr->findings.n > 0;
    for (size_t k = 0; k < fr->findings.n; k++) {
      const tt_finding *f = &fr->findings.items[k];
      sev[f->severity]++;
      if (take(&c, kind_of(f->severity))) put_finding(out, fr, f);
    }
    for (size_t k = 0; k < fr->sup_issues.n; k++)
      if (take(&c, kind_of(TT_SUPPRESS_ISSUE_SEVERITY))) put_issue(out, fr, &fr->sup_issues.items[k]);
  }
  /* A plain log line: the step's log says what was found even where notes were capped. */
  size_t total = sev[0] + sev[1] + sev[2];
  fprintf(out, "tiletrans: %zu finding%s (%zu error%s, %zu warning%s, %zu note%s) in %zu of %zu file%s", total,
          total == 1 ? "" : "s", sev[2], sev[2] == 1 ? "" : "s", sev[1], sev[1] == 1 ? "" : "s", sev[0],
          sev[0] == 1 ? "" : "s", files_with, r->n_files, r->n_files == 1 ? "" : "s");
  size_t dropped = c.dropped[0] + c.dropped[1] + c.dropped[2];
  if (dropped)
    fprintf(out, "; %zu not annotated (--max-annotations %zu: %zu errors, %zu warnings, %zu notices)", dropped, c.cap,
            c.dropped[0], c.dropped[1], c.dropped[2]);
  fputc('\n', out);
}
