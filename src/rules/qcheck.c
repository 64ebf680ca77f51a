#include "rules/qcheck.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/relocate.h"
#include "util/sha256.h"
#include "util/util.h"

#ifndef TT_BUILT_QUERY_RECORDS
#define TT_BUILT_QUERY_RECORDS "" /* a build that records none */
#endif

struct tt_qcheck {
  char *dir;     /* <cache>/queries: read and written */
  char *shipped; /* the records made with the build and installed beside the rulebook: read only */
};

tt_qcheck *tt_qcheck_new(void) {
  tt_qcheck *qc = tt_xcalloc(1, sizeof *qc);
  char *cache = tt_fs_cache_dir();
  qc->dir = tt_fs_join(cache, "queries");
  free(cache);
  qc->shipped = tt_relocate_path("TILETRANS_QUERY_RECORDS", TT_INSTALL_DATADIR "/tiletrans/queries", TT_BUILT_QUERY_RECORDS);
  return qc;
}

void tt_qcheck_free(tt_qcheck *qc) {
  if (!qc) return;
  free(qc->dir);
  free(qc->shipped);
  free(qc);
}

/* <dir>/<hash of the grammar's shape and the query>. The grammar is named by its
 * language and the sizes of its tables, which any regeneration changes. */
static char *record_path(const char *dir, tt_lang lang, const char *query) {
  const TSLanguage *g = tt_lang_grammar(lang);
  char shape[128];
  int n = snprintf(shape, sizeof shape, "%s abi %u symbols %u states %u fields %u", tt_lang_name(lang),
                   ts_language_abi_version(g), ts_language_symbol_count(g), ts_language_state_count(g),
                   ts_language_field_count(g));
  tt_sha256 h;
  tt_sha256_init(&h);
  tt_sha256_field(&h, shape, (size_t)n);
  tt_sha256_field(&h, query, strlen(query));
  char hex[65];
  tt_sha256_hex(&h, hex);
  return tt_xasprintf("%s/%.40s", dir, hex);
}

static bool recorded_in(const char *dir, tt_lang lang, const char *query) {
  if (!*dir) return false;
  char *path = record_path(dir, lang, query);
  struct stat st;
  bool passed = stat(path, &st) == 0 && S_ISREG(st.st_mode);
  free(path);
  return passed;
}

bool tt_qcheck_passed(const tt_qcheck *qc, tt_lang lang, const char *query) {
  return recorded_in(qc->dir, lang, query) || recorded_in(qc->shipped, lang, query);
}

void tt_qcheck_record(const tt_qcheck *qc, tt_lang lang, const char *query) {
  char *path = record_path(qc->dir, lang, query);
  if (tt_fs_mkdirs(qc->dir, NULL) == 0) {
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) close(fd);
  }
  free(path);
}
