/* Compiler-style text: `path:line:col: severity: message [rule-id]`, the source line,
 * a caret range under the finding, and the fix as a hint. */
#include <string.h>

#include "report/report.h"

#define BOLD "\033[1m"
#define RESET "\033[0m"

static const char *sev_color(tt_severity s) {
  return s == TT_SEV_ERROR ? "\033[1;31m" : s == TT_SEV_WARNING ? "\033[1;35m" : "\033[1;36m";
}

static const char *fix_status_note(tt_fix_status s) {
  switch (s) {
  case TT_FIX_APPLIED: return " (applied)";
  case TT_FIX_CONFLICT: return " (not applied: overlaps another fix)";
  case TT_FIX_SYNTAX_ERROR: return " (not applied: inside code that failed to parse)";
  default: return "";
  }
}

static void print_snippet(FILE *out, const tt_source *src, const tt_finding *f, bool color) {
  uint32_t n;
  const char *line = tt_source_line(src, f->start_pos.line, &n);
  fprintf(out, "%5u | %.*s\n      | ", f->start_pos.line, (int)n, line);
  uint32_t col0 = f->start_pos.column - 1;
  uint32_t end = f->end_pos.line == f->start_pos.line ? f->end_pos.column - 1 : n;
  if (end > n) end = n;
  /* Keep tabs so the caret lines up with the source as the terminal shows it. */
  for (uint32_t i = 0; i < col0 && i < n; i++) fputc(line[i] == '\t' ? '\t' : ' ', out);
  if (color) fputs("\033[1;32m", out);
  fputc('^', out);
  for (uint32_t i = col0 + 1; i < end; i++) fputc('~', out);
  if (color) fputs(RESET, out);
  fputc('\n', out);
}

void tt_report_text(FILE *out, const tt_report *r) {
  size_t counts[3] = {0}, files_with = 0, unconfirmed = 0;
  for (size_t i = 0; i < r->n_files; i++) {
    const tt_file_result *fr = &r->files[i];
    if (fr->error) {
      fprintf(out, "%s%s%s: %serror%s: %s\n", r->color ? BOLD : "", fr->path, r->color ? RESET : "",
              r->color ? sev_color(TT_SEV_ERROR) : "", r->color ? RESET : "", fr->error);
      continue;
    }
    if (fr->findings.n) files_with++;
    for (size_t k = 0; k < fr->findings.n; k++) {
      const tt_finding *f = &fr->findings.items[k];
      counts[f->severity]++;
      fprintf(out, "%s%s:%u:%u:%s %s%s:%s %s [%s]\n", r->color ? BOLD : "", fr->path, f->start_pos.line,
              f->start_pos.column, r->color ? RESET : "", r->color ? sev_color(f->severity) : "",
              tt_severity_name(f->severity), r->color ? RESET : "", f->message, f->rule->id);
      print_snippet(out, fr->src, f, r->color);
      if (f->has_fix)
        fprintf(out, "      = fix: %s%s\n", f->fix_description, r->rewrite ? fix_status_note(f->fix_status) : "");
      if (f->unconfirmed) {
        fprintf(out, "      = not confirmed: %s\n", f->unconfirmed);
        unconfirmed++;
      }
    }
  }
  size_t total = counts[0] + counts[1] + counts[2];
  if (total)
    fprintf(out, "%zu finding%s (%zu error%s, %zu warning%s, %zu note%s) in %zu of %zu file%s\n", total,
            total == 1 ? "" : "s", counts[2], counts[2] == 1 ? "" : "s", counts[1], counts[1] == 1 ? "" : "s",
            counts[0], counts[0] == 1 ? "" : "s", files_with, r->n_files, r->n_files == 1 ? "" : "s");
  if (unconfirmed)
    fprintf(out, "%zu finding%s could not be confirmed by the semantic layer (see `= not confirmed:`)\n",
            unconfirmed, unconfirmed == 1 ? "" : "s");
}
