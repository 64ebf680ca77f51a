/* edit.h — choosing and applying the fixes of a file's findings.
 *
 * A finding's fix is all-or-nothing. Fixes are considered in a fixed order (position,
 * then rule id) so the outcome never depends on thread timing or rule load order: a fix
 * is applied when none of its edits overlaps an edit already chosen (an identical edit
 * counts as agreement, not conflict; two different insertions at one point conflict,
 * since their order would be a guess) and none touches a region that failed to parse,
 * except an edit that renames exactly one identifier token lexed there (see edit.c). */
#ifndef TT_EDIT_H
#define TT_EDIT_H

#include "parser/tree.h"
#include "rules/finding.h"

/* Sorts `fs` (tt_findings_sort), sets each finding's fix_status (APPLIED, CONFLICT or SYNTAX_ERROR) and returns the
 * new text (malloc'd, caller frees; *out_len its length), or NULL when no fix applies.
 * `tree` gives the error regions and the original text. */
char *tt_edits_apply(const tt_tree *tree, tt_findings *fs, size_t *out_len);

#endif
