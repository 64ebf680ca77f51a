/* relocate.c — see relocate.h. */
#define _GNU_SOURCE /* dladdr1 */
#include "util/relocate.h"

#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/util.h"

/* `dir` without its trailing `/<sub>` (sub may hold several components, as in
 * lib/x86_64-linux-gnu), or NULL when dir does not end so. */
static char *strip_suffix(const char *dir, const char *sub) {
  size_t n = strlen(dir), k = strlen(sub);
  if (n <= k || dir[n - k - 1] != '/' || strcmp(dir + n - k, sub) != 0) return NULL;
  return n - k - 1 == 0 ? tt_xstrdup("/") : strndup(dir, n - k - 1);
}

/* The real path of the file holding this function's code, and whether that is the
 * main executable (tt_core linked statically into tiletrans) or a shared library
 * (libtiletrans). The main program's link map is the one with an empty name. */
static char *code_file(int *is_exe) {
  Dl_info info;
  struct link_map *map = NULL;
  if (dladdr1((void *)code_file, &info, (void **)&map, RTLD_DL_LINKMAP) && map && map->l_name && map->l_name[0]) {
    *is_exe = 0;
    return realpath(map->l_name, NULL);
  }
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return NULL;
  exe[n] = '\0';
  *is_exe = 1;
  return tt_xstrdup(exe);
}

char *tt_relocate_prefix(void) {
  int is_exe = 1;
  char *file = code_file(&is_exe);
  if (!file) return NULL;
  char *dir = tt_fs_dirname(file);
  free(file);
  char *prefix = strip_suffix(dir, is_exe ? TT_INSTALL_BINDIR : TT_INSTALL_LIBDIR);
  free(dir);
  return prefix;
}

char *tt_relocate_find(const char *rel) {
  char *prefix = tt_relocate_prefix();
  if (!prefix) return NULL;
  char *path = tt_fs_join(prefix, rel);
  free(prefix);
  struct stat st;
  if (stat(path, &st) == 0) return path;
  free(path);
  return NULL;
}

char *tt_relocate_path(const char *env_name, const char *installed_rel, const char *built) {
  const char *env = getenv(env_name);
  if (env && *env) return tt_xstrdup(env);
  char *installed = tt_relocate_find(installed_rel);
  return installed ? installed : tt_xstrdup(built);
}

char *tt_relocate_rules_dir(void) {
  return tt_relocate_path("TILETRANS_RULES_DIR", TT_INSTALL_DATADIR "/tiletrans/rules", TT_DEFAULT_RULES_DIR);
}
