#include "report/report.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void tt_file_result_free(tt_file_result *r) {
  free(r->path);
  tt_source_free(r->src);
  tt_findings_free(&r->findings);
  tt_findings_free(&r->suppressed);
  tt_suppress_issues_free(&r->sup_issues);
  free(r->error);
  free(r->new_text);
  memset(r, 0, sizeof *r);
}

int tt_format_parse(const char *name, tt_format *out) {
  static const char *const names[] = {"text", "json", "sarif", "github"};
  for (int i = 0; i < 4; i++)
    if (strcmp(name, names[i]) == 0) {
      *out = (tt_format)i;
      return 0;
    }
  return -1;
}

void tt_report_write(FILE *out, tt_format fmt, const tt_report *r) {
  switch (fmt) {
  case TT_FMT_TEXT: tt_report_text(out, r); break;
  case TT_FMT_JSON: tt_report_json(out, r); break;
  case TT_FMT_SARIF: tt_report_sarif(out, r); break;
  case TT_FMT_GITHUB: tt_report_github(out, r); break;
  }
}

uint32_t tt_report_char_column(const tt_source *src, tt_pos p) {
  uint32_t start = tt_source_line_start(src, p.line), col = 1;
  for (uint32_t i = start; i < start + p.column - 1 && i < src->len; i++)
    if (((unsigned char)src->text[i] & 0xC0) != 0x80) col++;
  return col;
}
