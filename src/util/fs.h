/* fs.h — reading files, atomic writes, and walking source trees. */
#ifndef TT_FS_H
#define TT_FS_H

#include <stdbool.h>
#include <stddef.h>

/* Reads all of `path` ("-" reads standard input) into a malloc'd, NUL-terminated
 * buffer (*out, caller frees) of *len bytes. Returns 0, or -1 with *err (malloc'd). */
int tt_fs_read(const char *path, char **out, size_t *len, char **err);

/* Replaces `path` with `data` atomically: writes a temporary file in the same folder
 * (named TT_FS_TEMP_PREFIX "<pid>-XXXXXX"), fsyncs it, gives it the mode and owner of
 * the file it replaces (or 0644 for a new file), then renames it over `path`. When
 * `path` is a symbolic link, its target is replaced and the link kept. A file whose
 * owner cannot be kept (another user's, for a user who is not root) is refused. On any
 * failure the original file is untouched and the temporary file removed. A file with
 * several hard links loses them (the other names keep the old text): callers report
 * it. Returns 0, or -1 with *err (malloc'd). */
int tt_fs_write_atomic(const char *path, const char *data, size_t len, char **err);

#define TT_FS_TEMP_PREFIX ".tiletrans-tmp-"

/* Removes the temporary files of tt_fs_write_atomic in `dir` whose process is gone (a
 * killed run), calling `removed(path, ctx)` for each (may be NULL). Returns how many. */
size_t tt_fs_remove_stale_temps(const char *dir, void (*removed)(const char *path, void *ctx), void *ctx);

/* mkdir -p `dir`. Returns 0, or -1 with *err (malloc'd; may be NULL). */
int tt_fs_mkdirs(const char *dir, char **err);
/* mkdir -p for the folder part of `path` (the last component is a file name). */
int tt_fs_mkdirs_for(const char *path, char **err);

bool tt_fs_is_dir(const char *path);

/* Calls `visit(path, ctx)` for every regular file under `root` (recursively, in sorted
 * order so output is deterministic) for which `want(path, ctx)` holds. Skips `.git`,
 * `node_modules`, and build folders (named build, build-*, cmake-build-*, _deps, or
 * holding a CMakeCache.txt). A `root` that is a file is visited as is, whatever its
 * name. Returns 0, or -1 with *err when root cannot be read. */
typedef bool (*tt_fs_filter)(const char *path, void *ctx);
typedef void (*tt_fs_visit)(const char *path, void *ctx);
int tt_fs_walk(const char *root, tt_fs_filter want, tt_fs_visit visit, void *ctx, char **err);

/* The names in folder `dir` (without "." and ".."), sorted; *n receives the count.
 * NULL (and *n = 0) when the folder cannot be read. Caller frees each name and the
 * array. */
char **tt_fs_list(const char *dir, size_t *n);

/* Joins a folder and a relative path with one '/'. Caller frees. */
char *tt_fs_join(const char *dir, const char *rel);
/* The folder part of a path ("." when none). Caller frees. */
char *tt_fs_dirname(const char *path);

/* tiletrans's cache folder: $TILETRANS_CACHE_DIR, else $XDG_CACHE_HOME/tiletrans, else
 * ~/.cache/tiletrans, else /tmp/tiletrans-cache. Not created here. Caller frees. */
char *tt_fs_cache_dir(void);

#endif
