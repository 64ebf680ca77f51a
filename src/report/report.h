/* report.h — presenting findings: text, json, sarif, github, and unified diffs. */
#ifndef TT_REPORT_H
#define TT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "parser/source.h"
#include "rules/finding.h"
#include "rules/rulebook.h"
#include "rules/suppress.h"

/* One input file's outcome. Owns everything in it. */
typedef struct tt_file_result {
  char *path;            /* as displayed and written in reports */
  tt_source *src;        /* NULL when the file could not be read */
  tt_findings findings;
  tt_findings suppressed;       /* lint: findings silenced by tiletrans-ignore (SARIF keeps them) */
  tt_suppress_issues sup_issues; /* lint: tiletrans-ignore comments that do no work */
  char *error;           /* input error (unreadable, too large), or NULL; without the path */
  /* rewrite only */
  char *new_text;
  size_t new_len;
  bool changed;
  bool converged;
  size_t errors_left;    /* error findings no fix removed (tt_rewrite_result) */
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
  bool quiet;                 /* text: no summary line, only findings at or above min_severity */
  int min_severity;           /* with quiet: the least severity shown (a tt_severity; 3: none) */
  const char *srcroot;        /* SARIF: absolute folder artifact URIs are relative to (NULL: cwd) */
  size_t max_annotations;     /* github: at most this many notes per type (0: no cap) */
} tt_report;

/* A file's suppressions that do no work count as warnings for --fail-on; this is
 * their severity. */
#define TT_SUPPRESS_ISSUE_SEVERITY TT_SEV_WARNING

void tt_report_text(FILE *out, const tt_report *r);
void tt_report_json(FILE *out, const tt_report *r);
void tt_report_sarif(FILE *out, const tt_report *r);
void tt_report_github(FILE *out, const tt_report *r);
void tt_report_write(FILE *out, tt_format fmt, const tt_report *r);

/* Display columns: the 1-based column in characters (UTF-8 code points; a tab counts
 * as one) of byte column `p.column` of line `p.line`. */
uint32_t tt_report_char_column(const tt_source *src, tt_pos p);

/* Writes a unified diff (3 lines of context) between two texts; nothing when equal. */
void tt_diff_unified(FILE *out, const char *old_label, const char *new_label, const char *a, size_t alen,
                     const char *b, size_t blen);

#endif
