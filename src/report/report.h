/* report.h — presenting findings: text, json, sarif, github, and unified diffs. */
#ifndef TT_REPORT_H
#define TT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "parser/source.h"
#include "rules/finding.h"
#include "rules/rulebook.h"

/* One input file's outcome. Owns everything in it. */
typedef struct tt_file_result {
  char *path;            /* as displayed and written in reports */
  tt_source *src;        /* NULL when the file could not be read */
  tt_findings findings;
  char *error;           /* input error (unreadable, too large), or NULL */
  /* rewrite only */
  char *new_text;
  size_t new_len;
  bool changed;
  bool converged;
} tt_file_result;

void tt_file_result_free(tt_file_result *r);

typedef enum tt_format { TT_FMT_TEXT, TT_FMT_JSON, TT_FMT_SARIF, TT_FMT_GITHUB } tt_format;
int tt_format_parse(const char *name, tt_format *out);

typedef struct tt_report {
  const tt_file_result *files;
  size_t n_files;
  const tt_rulebook *book;    /* for SARIF's rule table */
  const tt_selection *sel;
  bool rewrite;               /* findings carry fix statuses */
  int exit_code;              /* for SARIF's invocation */
  bool color;                 /* text only */
} tt_report;

void tt_report_text(FILE *out, const tt_report *r);
void tt_report_json(FILE *out, const tt_report *r);
void tt_report_sarif(FILE *out, const tt_report *r);
void tt_report_github(FILE *out, const tt_report *r);
void tt_report_write(FILE *out, tt_format fmt, const tt_report *r);

/* Writes a unified diff (3 lines of context) between two texts; nothing when equal. */
void tt_diff_unified(FILE *out, const char *old_label, const char *new_label, const char *a, size_t alen,
                     const char *b, size_t blen);

#endif
