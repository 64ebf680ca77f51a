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

void tt_report_github(FILE *out, const tt_report *r) {
  for (size_t i = 0; i < r->n_files; i++) {
    const tt_file_result *fr = &r->files[i];
    if (fr->error) {
      fputs("::error file=", out);
      put_escaped(out, fr->path, true);
      fputs("::", out);
      put_escaped(out, fr->error, false);
      fputc('\n', out);
      continue;
    }
    for (size_t k = 0; k < fr->findings.n; k++) {
      const tt_finding *f = &fr->findings.items[k];
      const char *cmd = f->severity == TT_SEV_ERROR ? "error" : f->severity == TT_SEV_WARNING ? "warning" : "notice";
      fprintf(out, "::%s file=", cmd);
      put_escaped(out, fr->path, true);
      fprintf(out, ",line=%u,col=%u,endLine=%u,endColumn=%u,title=", f->start_pos.line, f->start_pos.column,
              f->end_pos.line, f->end_pos.column);
      put_escaped(out, f->rule->id, true);
      fputs("::", out);
      put_escaped(out, f->message, false);
      if (f->has_fix) {
        put_escaped(out, "\nfix: ", false);
        put_escaped(out, f->fix_description, false);
      }
      fputc('\n', out);
    }
  }
}
