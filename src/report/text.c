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

static bool is_cont(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

/* The caret goes under the finding's first character and the tildes under the rest:
 * counted in characters (UTF-8 code points), not bytes, so they line up as a terminal
 * shows the line. Tabs are kept so the indentation matches. */
static void print_snippet(FILE *out, const tt_source *src, const tt_finding *f, bool color) {
  uint32_t n;
  const char *line = tt_source_line(src, f->start_pos.line, &n);
  fprintf(out, "%5u | %.*s\n      | ", f->start_pos.line, (int)n, line);
  uint32_t col0 = f->start_pos.column - 1;
  uint32_t end = f->end_pos.line == f->start_pos.line ? f->end_pos.column - 1 : n;
  if (end > n) end = n;
  for (uint32_t i = 0; i < col0 && i < n; i++)
    if (!is_cont(line[i])) fputc(line[i] == '\t' ? '\t' : ' ', out);
  if (color) fputs("\033[1;32m", out);
  fputc('^', out);
  for (uint32_t i = col0 + 1; i < end; i++)
    if (!is_cont(line[i])) fputc('~', out);
  if (color) fputs(RESET, out);
  fputc('\n', out);
}

static void print_issue(FILE *out, const tt_report *r, const tt_file_result *fr, const tt_suppress_issue *is) {
  fprintf(out, "%s%s:%u:%u:%s %s%s:%s %s [tiletrans-ignore]\n", r->color ? BOLD : "", fr->path, is->line, is->column,
          r->color ? RESET : "", r->color ? sev_color(TT_SUPPRESS_ISSUE_SEVERITY) : "",
          tt_severity_name(TT_SUPPRESS_ISSUE_SEVERITY), r->color ? RESET : "", is->message);
}

static bool shown(const tt_report *r, tt_severity s) { return !r->quiet || (int)s >= r->min_severity; }

/* Suppressed findings are never silent: one line each, after the findings (a port's
 * unported constructs carry tiletrans-ignore markers; they are listed here). */
static void print_suppressed(FILE *out, const tt_report *r) {
  size_t n = 0;
  for (size_t i = 0; i < r->n_files; i++) n += r->files[i].error ? 0 : r->files[i].suppressed.n;
  if (!n) return;
  fprintf(out, "%zu finding%s silenced by tiletrans-ignore comment%s:\n", n, n == 1 ? "" : "s", n == 1 ? "" : "s");
  for (size_t i = 0; i < r->n_files; i++) {
    const tt_file_result *fr = &r->files[i];
    for (size_t k = 0; !fr->error && k < fr->suppressed.n; k++) {
      const tt_finding *f = &fr->suppressed.items[k];
      fprintf(out, "  %s:%u:%u: %s (suppressed): %s [%s]\n", fr->path, f->start_pos.line, f->start_pos.column,
              tt_severity_name(f->severity), f->message, f->rule->id);
    }
  }
}

/* Input errors are not here: the command prints them on stderr, once each. */
void tt_report_text(FILE *out, const tt_report *r) {
  size_t counts[3] = {0}, files_with = 0, issues = 0, unconfirmed = 0;
  for (size_t i = 0; i < r->n_files; i++) {
    const tt_file_result *fr = &r->files[i];
    if (fr->error) continue;
    if (fr->findings.n) files_with++;
    for (size_t k = 0; k < fr->findings.n; k++) {
      const tt_finding *f = &fr->findings.items[k];
      counts[f->severity]++;
      if (!shown(r, f->severity)) continue;
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
    issues += fr->sup_issues.n;
    for (size_t k = 0; k < fr->sup_issues.n && shown(r, TT_SUPPRESS_ISSUE_SEVERITY); k++)
      print_issue(out, r, fr, &fr->sup_issues.items[k]);
  }
  size_t total = counts[0] + counts[1] + counts[2];
  if (r->quiet) return;
  print_suppressed(out, r);
  if (total)
    fprintf(out, "%zu finding%s (%zu error%s, %zu warning%s, %zu note%s) in %zu of %zu file%s\n", total,
            total == 1 ? "" : "s", counts[2], counts[2] == 1 ? "" : "s", counts[1], counts[1] == 1 ? "" : "s",
            counts[0], counts[0] == 1 ? "" : "s", files_with, r->n_files, r->n_files == 1 ? "" : "s");
  if (issues)
    fprintf(out, "%zu tiletrans-ignore comment%s that do%s no work\n", issues, issues == 1 ? "" : "s",
            issues == 1 ? "es" : "");
  if (unconfirmed)
    fprintf(out, "%zu finding%s could not be confirmed by the semantic layer (see `= not confirmed:`)\n",
            unconfirmed, unconfirmed == 1 ? "" : "s");
}
