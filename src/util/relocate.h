/* relocate.h — where an installed tiletrans keeps its files.
 *
 * An install is relocatable: the rulebook, the sim's headers and runtime library are
 * found relative to the running binary (/proc/self/exe), or relative to libtiletrans
 * when tiletrans is embedded as a shared library (dladdr), so a prefix that is copied
 * or moved keeps working. The layout below the prefix is the one CMake installed
 * (TT_INSTALL_BINDIR, TT_INSTALL_LIBDIR, TT_INSTALL_DATADIR, relative paths compiled
 * in by the top CMakeLists.txt). Nothing here caches: every call looks again. */
#ifndef TT_RELOCATE_H
#define TT_RELOCATE_H

/* Defaults for builds that do not pass the layout (the top CMakeLists.txt does). */
#ifndef TT_INSTALL_BINDIR
#define TT_INSTALL_BINDIR "bin"
#endif
#ifndef TT_INSTALL_LIBDIR
#define TT_INSTALL_LIBDIR "lib"
#endif
#ifndef TT_INSTALL_DATADIR
#define TT_INSTALL_DATADIR "share"
#endif

/* The installation prefix of the running code: the folder above the executable's
 * bin folder (or above libtiletrans's lib folder). NULL when the code does not run
 * from an installed layout (a build tree, say). Caller frees. */
char *tt_relocate_prefix(void);

/* <prefix>/<rel> when the code runs installed and that path exists; NULL otherwise.
 * `rel` is relative to the prefix, e.g. TT_INSTALL_DATADIR "/tiletrans/rules".
 * Caller frees. */
char *tt_relocate_find(const char *rel);

/* Where one of tiletrans's files is: the environment variable `env_name` when set and
 * not empty, else <prefix>/<installed_rel> of an install (tt_relocate_find), else
 * `built`, the build tree's path compiled in. Caller frees. */
char *tt_relocate_path(const char *env_name, const char *installed_rel, const char *built);

/* The installed rulebook folder (see tt_relocate_find), else the source tree's
 * (TT_DEFAULT_RULES_DIR). TILETRANS_RULES_DIR, when set and not empty, wins over both.
 * Caller frees. */
char *tt_relocate_rules_dir(void);

#endif
