#include "util/regex.h"

#include "util/util.h"

pcre2_code *tt_regex_compile(const char *pattern, char **err) {
  int code;
  PCRE2_SIZE off;
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0, &code, &off, NULL);
  if (!re) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(code, msg, sizeof msg);
    *err = tt_xasprintf("bad regex \"%s\" at offset %zu: %s", pattern, (size_t)off, (char *)msg);
    return NULL;
  }
  pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* best effort: interpreted when it fails */
  return re;
}

bool tt_regex_find(const pcre2_code *re, const char *s, size_t n, size_t *ms, size_t *me) {
  pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
  int rc = pcre2_match(re, (PCRE2_SPTR)s, n, 0, 0, md, NULL);
  if (rc >= 0 && ms && me) {
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    *ms = ov[0];
    *me = ov[1];
  }
  pcre2_match_data_free(md);
  return rc >= 0;
}
