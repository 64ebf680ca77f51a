/* prefilter.h — which query rules can match a text at all, told from literals.
 *
 * Compiling a rule's tree-sitter query is most of tiletrans's start-up (tree-sitter
 * analyses every pattern against the whole grammar), so a run compiles only the
 * patterns that may match its inputs. A rule's prefilter is derived from its query text alone:
 * for each top-level pattern, the groups of literals one of which the source must
 * contain for the pattern to match, read from `#eq?`, `#any-of?`, `#match?` (and
 * `#tt-file-match?`, whose regex runs over the whole file) on
 * captures that every match of the pattern has (not under `?`, `*` or an alternation:
 * a predicate on an absent capture holds). The derivation is conservative: whatever it
 * cannot read (a regex with classes only, a capture that may be absent) requires
 * nothing, so "may match" is never wrong when a rule does match. */
#ifndef TT_PREFILTER_H
#define TT_PREFILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tt_prefilter tt_prefilter;

/* The prefilter of a query, one entry per top-level pattern (a pattern that requires
 * no literal may match any text); NULL when the reader could not split the query into
 * its patterns (the rule may match any text). Owned by the caller: free with
 * tt_prefilter_free. */
tt_prefilter *tt_prefilter_new(const char *query_text);
void tt_prefilter_free(tt_prefilter *p);

/* One text's answers to "does it contain literal L", each literal searched once
 * (rules share literals). */
typedef struct tt_prefilter_text {
  const char *text;
  size_t len;
  struct lit_answer *answers; /* open-addressed by literal pointer; internal */
  size_t n_answers, cap;
  char *lowered;              /* the text in lower case, made on first caseless literal */
} tt_prefilter_text;

void tt_prefilter_text_init(tt_prefilter_text *t, const char *text, size_t len);
void tt_prefilter_text_free(tt_prefilter_text *t);

/* False only when no pattern of `p` can match the text. A NULL prefilter may match. */
bool tt_prefilter_may_match(const tt_prefilter *p, tt_prefilter_text *t);

/* The top-level patterns of a (non-NULL) prefilter, in query order: pattern i may match
 * the text unless this says false, and it is the query's bytes [start, end), which
 * compile on their own (a run compiles only the patterns its inputs may match). */
size_t tt_prefilter_n_patterns(const tt_prefilter *p);
bool tt_prefilter_pattern_may_match(const tt_prefilter *p, size_t i, tt_prefilter_text *t);
void tt_prefilter_pattern_span(const tt_prefilter *p, size_t i, uint32_t *start, uint32_t *end);

/* The number of literal groups over all patterns (for tests and diagnostics). */
size_t tt_prefilter_n_groups(const tt_prefilter *p);

#endif
