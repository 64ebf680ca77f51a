/* support.h — small fixtures shared by the unit tests. */
#ifndef TT_TEST_SUPPORT_H
#define TT_TEST_SUPPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "parser/source.h"
#include "parser/tree.h"
#include "rules/finding.h"
#include "rules/rule.h"

/* A source over a copy of `text`. */
tt_source *tts_source(const char *path, const char *text, tt_lang lang);
/* A rule loaded from YAML text (path "test-rule.yaml"); NULL with *err on error. */
tt_rule *tts_rule(const char *yaml, char **err);

/* A rule made of a fixed header (id `t-rule`, target hip, language `lang`, category
 * numeric, severity warning, message `message`) followed by `body` (which holds the
 * query or analyzer, and optionally fix/range/...) and, unless `body` already has them,
 * one `match` example. Aborts the test when it does not load. Caller frees. */
tt_rule *tts_rule_of(const char *lang, const char *message, const char *body);

/* Parses `code` as `lang`, runs `rule` alone over it (tt_match_rule) and returns the
 * number of findings; when `out` is not NULL the findings are moved there. */
size_t tts_match(const tt_rule *rule, tt_lang lang, const char *code, tt_findings *out);

struct tt_rulebook;
/* The source tree's rulebook, its queries compiled (`compiled`) or not yet
 * (tt_rulebook_load_uncompiled); fails the test when it does not load. Caller frees
 * with tt_rulebook_free. */
struct tt_rulebook *tts_rulebook(bool compiled);

/* Temporary folders and files. */
char *tts_tmpdir(void);                       /* mkdtemp; caller frees the path */
void tts_rmrf(const char *path);              /* removes a tree (no symlink following) */
void tts_write(const char *path, const char *text); /* aborts on failure; mkdir -p */
char *tts_slurp(const char *path, size_t *len);     /* NULL when unreadable */

/* Runs `fn(out, ctx)` with `out` an in-memory stream and returns what it wrote. */
char *tts_capture(void (*fn)(FILE *out, void *ctx), void *ctx, size_t *len);

/* Count of (possibly overlapping) occurrences of `needle` in `hay`. */
size_t tts_count_substr(const char *hay, const char *needle);

#endif
