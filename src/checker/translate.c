/* translate.c — content-addressed cache of tiletrans's HIP translations (translate.h). */
#include "checker/translate.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "checker/build.h"
#include "checker/proc.h"
#include "rules/rewrite.h"
#include "rules/rulebook.h"
#include "sema/tt_sema.h"
#include "util/fs.h"
#include "util/sha256.h"
#include "util/util.h"

struct tt_check_translator {
  struct tt_rulebook *book;  /* borrowed; compiled here, under lock */
  char *dir;                 /* <cache>/rewrite, or NULL: no cache */
  char rules_hex[65];        /* the rule files, the engine and the sim's headers */
  pthread_mutex_t lock;      /* guards compiling the book */
};

/* A file's identity without reading it: device, inode, size, modification time.
 * Replacing or rebuilding the file changes it. */
static void hash_file_identity(tt_sha256 *h, const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) return;
  long long id[5] = {(long long)st.st_dev, (long long)st.st_ino, (long long)st.st_size,
                     (long long)st.st_mtim.tv_sec, (long long)st.st_mtim.tv_nsec};
  tt_sha256_field(h, id, sizeof id);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The rule files (name and content, in the book's order), the sim's headers
 * (env_hash) and the code that runs them: the executable and its shared objects. A
 * rule file that cannot be read is hashed as such: its rule was loaded, so the cache
 * simply misses until it can be read again. */
static void hash_rules(const struct tt_rulebook *book, const char *env_hash, char hex[65]) {
  tt_sha256 h;
  tt_sha256_init(&h);
  static const char tag[] = "tiletrans-translation-v1";
  tt_sha256_field(&h, tag, sizeof tag - 1);
  tt_sha256_field(&h, env_hash ? env_hash : "", env_hash ? strlen(env_hash) : 0);
  hash_file_identity(&h, "/proc/self/exe");
  /* libclang answers the rules' type questions; it is loaded on the first parse
   * (sema/tt_sema.h), so it is named here, not found in the maps. */
  const char *clang = tt_sema_library();
  if (clang) {
    tt_sha256_field(&h, clang, strlen(clang));
    hash_file_identity(&h, clang);
  }
  /* and every shared object it runs with. By name, sorted: the maps list them by
   * address, which changes every run (ASLR). */
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[4096];
  char **sos = NULL;
  size_t n_sos = 0, cap = 0;
  while (maps && fgets(line, sizeof line, maps)) {
    char *so = strchr(line, '/');
    if (!so || !strstr(so, ".so")) continue;
    so[strcspn(so, "\n")] = '\0';
    TT_PUSH(sos, n_sos, cap, tt_xstrdup(so));
  }
  if (maps) fclose(maps);
  if (n_sos) qsort(sos, n_sos, sizeof *sos, cmp_str);
  for (size_t i = 0; i < n_sos; i++) {
    if (i == 0 || strcmp(sos[i], sos[i - 1]) != 0) { /* one file maps several segments */
      tt_sha256_field(&h, sos[i], strlen(sos[i]));
      hash_file_identity(&h, sos[i]);
    }
  }
  for (size_t i = 0; i < n_sos; i++) free(sos[i]);
  free(sos);
  for (size_t i = 0; i < book->n_rules; i++) {
    const char *f = book->rules[i]->file;
    tt_sha256_field(&h, f, strlen(f));
    size_t n = 0;
    char *t = tt_check_read_file(f, &n, 0);
    tt_sha256_field(&h, t ? t : "", t ? n : 0);
    free(t);
  }
  tt_sha256_hex(&h, hex);
}

tt_check_translator *tt_check_translator_new(struct tt_rulebook *book, const char *cache_dir, const char *env_hash) {
  tt_check_translator *tr = calloc(1, sizeof *tr);
  if (!tr) return NULL;
  tr->book = book;
  if (cache_dir && !(tr->dir = tt_xasprintf("%s/rewrite", cache_dir))) {
    free(tr);
    return NULL;
  }
  hash_rules(book, env_hash, tr->rules_hex);
  pthread_mutex_init(&tr->lock, NULL);
  return tr;
}

void tt_check_translator_free(tt_check_translator *tr) {
  if (!tr) return;
  pthread_mutex_destroy(&tr->lock);
  free(tr->dir);
  free(tr);
}

const struct tt_rulebook *tt_check_translator_book(const tt_check_translator *tr) { return tr->book; }

/* What the semantic layer reads from disk beside the text when a rule asks for types
 * (sema_clang.c): the headers of the source's folder, and the compile database it
 * finds, the nearest compile_commands.json in a folder or its build/, upward. */
static void hash_surroundings(tt_sha256 *h, const char *abs) {
  char *dir = tt_fs_dirname(abs);
  size_t n;
  char **names = tt_fs_list(dir, &n);
  for (size_t i = 0; i < n; i++) {
    const char *dot = strrchr(names[i], '.');
    if (dot && (!strcmp(dot, ".h") || !strcmp(dot, ".hh") || !strcmp(dot, ".hpp") || !strcmp(dot, ".cuh") ||
                !strcmp(dot, ".inc") || !strcmp(dot, ".inl"))) {
      char *p = tt_xasprintf("%s/%s", dir, names[i]);
      size_t len;
      char *data = tt_check_read_file(p, &len, 0);
      if (data) {
        tt_sha256_field(h, names[i], strlen(names[i]));
        tt_sha256_field(h, data, len);
      }
      free(data);
      free(p);
    }
    free(names[i]);
  }
  free(names);
  for (bool found = false; !found;) {
    for (int b = 0; b < 2 && !found; b++) {
      char *f = tt_xasprintf(b ? "%s/build/compile_commands.json" : "%s/compile_commands.json", dir);
      size_t len;
      char *data = tt_check_read_file(f, &len, 0);
      if (data) {
        found = true;
        tt_sha256_field(h, f, strlen(f));
        tt_sha256_field(h, data, len);
      }
      free(data);
      free(f);
    }
    char *up = tt_fs_dirname(dir);
    bool top = strcmp(up, dir) == 0;
    free(dir);
    dir = up;
    if (top) break;
  }
  free(dir);
}

/* The cache file of one translation. */
static char *entry_path(const tt_check_translator *tr, const char *path, tt_lang lang, const char *text, size_t len) {
  tt_sha256 h;
  tt_sha256_init(&h);
  tt_sha256_field(&h, tr->rules_hex, 64);
  static const char target[] = "hip";
  tt_sha256_field(&h, target, sizeof target - 1);
  const char *ln = tt_lang_name(lang);
  tt_sha256_field(&h, ln, strlen(ln));
  char *abs = tt_check_abspath(path);
  tt_sha256_field(&h, abs, strlen(abs));
  hash_surroundings(&h, abs);
  free(abs);
  tt_sha256_field(&h, text, len);
  char hex[65];
  tt_sha256_hex(&h, hex);
  return tt_xasprintf("%s/%.2s/%.40s", tr->dir, hex, hex + 2);
}

int tt_check_translate(tt_check_translator *tr, const char *path, tt_lang lang, const char *text, size_t len,
                       char **out, size_t *out_len, char **err) {
  *out = NULL;
  *err = NULL;
  char *entry = tr->dir ? entry_path(tr, path, lang, text, len) : NULL;
  if (entry && (*out = tt_check_read_file(entry, out_len, 0))) {
    free(entry);
    return 0;
  }
  /* A miss: compile the language's queries, once per run. The lock also orders this
   * thread's later reads of the book after the compile that wrote it. */
  pthread_mutex_lock(&tr->lock);
  int crc = tt_rulebook_compile(tr->book, lang, NULL, err);
  pthread_mutex_unlock(&tr->lock);
  if (crc < 0) {
    free(entry);
    return -1;
  }
  tt_selection sel = {.target = "hip"};
  tt_rewrite_result rr;
  if (tt_rewrite_text(tr->book, &sel, path, lang, text, len, &rr, err) < 0) {
    free(entry);
    return -1;
  }
  *out = rr.text;
  *out_len = rr.len;
  rr.text = NULL;
  tt_rewrite_result_free(&rr);
  /* Failing to save costs the next run a translation, not this one its result. */
  if (entry) {
    char *slash = strrchr(entry, '/');
    *slash = '\0';
    bool dir_ok = tt_check_mkdirs(entry) == 0;
    *slash = '/';
    if (dir_ok) (void)tt_check_write_file(entry, *out, *out_len);
  }
  free(entry);
  return 0;
}
