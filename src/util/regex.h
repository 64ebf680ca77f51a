/* regex.h — PCRE2 regexes as rules use them: compiled once (JIT when available),
 * matched against byte ranges that need not be valid UTF-8. */
#ifndef TT_REGEX_H
#define TT_REGEX_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdbool.h>
#include <stddef.h>

/* Compiles `pattern`; NULL with *err (malloc'd) naming the offset and the problem.
 * Free with pcre2_code_free. */
pcre2_code *tt_regex_compile(const char *pattern, char **err);

/* True when `re` matches somewhere in s[0..n); the match's bounds go to *ms, *me when
 * they are not NULL. */
bool tt_regex_find(const pcre2_code *re, const char *s, size_t n, size_t *ms, size_t *me);

#endif
