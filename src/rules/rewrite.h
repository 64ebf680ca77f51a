/* rewrite.h — apply a rulebook's fixes to one source text, to a fixpoint.
 *
 * This is the translation entry point used by `tiletrans rewrite` and by the checker
 * (`tiletrans check` translates a spec's source when no candidate is given, with one
 * rulebook shared by all its checks). */
#ifndef TT_REWRITE_H
#define TT_REWRITE_H

#include <stddef.h>
#include "rules/finding.h"
#include "rules/rulebook.h"

/* The outcome of rewriting one text. Owns every pointer in it; free with
 * tt_rewrite_result_free. */
typedef struct tt_rewrite_result {
  char *text;              /* the rewritten text (NUL-terminated; may contain NULs) */
  size_t len;
  int changed;             /* 1 when text differs from the input */
  int rounds;              /* fix-apply-reparse rounds run */
  int converged;           /* 0 when the round limit was hit while edits kept coming */
  tt_findings findings;    /* findings of the first round (with fixes), plus notes for
                              edits refused (conflict, syntax error) */
  size_t errors_left;      /* error-severity findings of the rewritten text (of the last
                              round run): what no fix, the rule's own or another's, removed;
                              unsupported constructs count even where a tiletrans-ignore
                              comment silences them (the port is not complete) */
  tt_findings suppressed;  /* findings of the input that tiletrans-ignore comments silence */
} tt_rewrite_result;

/* Rewrites `text` (len bytes) as file `path` in language `lang` with every fix of the
 * rules in `book` that apply (see tt_rulebook_select). Never fails on malformed input:
 * regions the parser could not parse are left as they are and reported. A construct no
 * rule can port (category `unsupported`, no fix) is left as it is, with a marker before
 * it: `/+ tiletrans-ignore: RULE -- left unported: SUMMARY +/`
 * (+ for *), so lint of the port lists it as suppressed. Returns 0, or
 * -1 with *err set (malloc'd; caller frees) when the language has no parser. */
int tt_rewrite_text(const tt_rulebook *book, const tt_selection *sel, const char *path,
                    tt_lang lang, const char *text, size_t len,
                    tt_rewrite_result *out, char **err);

void tt_rewrite_result_free(tt_rewrite_result *r);

#endif
