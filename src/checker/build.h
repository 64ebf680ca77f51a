/* build.h — compiling harnesses, with a content-hash cache.
 *
 * Owned by the checker. A harness binary is named by the SHA-256 of everything that
 * goes into it: the harness text, the prepared kernel source, headers next to the
 * kernel, every file of the sim's include dir, the sim runtime library, and the
 * compiler command. Re-running a check with another seed or size reuses the binary;
 * editing a kernel, a shim header or the runtime rebuilds it. The cache lives in
 * $TILETRANS_CACHE_DIR, else $XDG_CACHE_HOME/tiletrans, else ~/.cache/tiletrans. */
#ifndef TT_CHECK_BUILD_H
#define TT_CHECK_BUILD_H

#include <stddef.h>

typedef struct tt_check_toolchain {
  char *cache_dir;       /* resolved cache root (created) */
  char *cxx;             /* compiler command: $CXX or "c++" */
  char *sim_include;     /* the sim's include dir (tt_sim.h, the shims) */
  char *sim_lib;         /* the sim runtime static library */
  char *sim_hash;        /* hex SHA-256 of the include dir's files and the library */
  double timeout_s;      /* compile time limit */
  char *hipcc;           /* real HIP compiler for the candidate, NULL: none (realcc.h) */
  char *nvcc;            /* real CUDA compiler for the reference, NULL: none */
  char *prebuilt_pch;    /* the precompiled shims made with tiletrans's build (read only),
                            NULL: none. TILETRANS_SIM_PCH overrides. */
  char *hip_support;     /* the rulebook's hip/support dir (tiletrans_hip_compat.h, which
                            tiletrans's ports include), searched by every HIP build; NULL:
                            none. Set with tt_check_toolchain_set_hip_support. */
} tt_check_toolchain;

/* Resolves the cache dir and the sim's paths (compile-time defaults, overridable by
 * TILETRANS_SIM_INCLUDE_DIR / TILETRANS_SIM_LIB) and hashes the sim's files once.
 * Returns 0, or -1 with *err (malloc'd) when the sim is missing. */
int tt_check_toolchain_init(tt_check_toolchain *tc, char **err);
void tt_check_toolchain_free(tt_check_toolchain *tc);

/* Precompiles the shims' standard header into folder `root` as `check` looks for it
 * in tc->prebuilt_pch: the build does this once (tools/tt_precompile.c), so that no
 * check, not even the first of an empty cache, parses the standard library (about
 * 0.4 s of CPU per harness). 0, or -1 with *err (malloc'd). */
int tt_check_precompile_shims(const tt_check_toolchain *tc, const char *root, char **err);

/* The folder holding the precompiled shim for `harness_text` (a build puts it first
 * on the include path), or NULL to build without one: the build's own (above), else
 * the cache's, made here once the cache holds harnesses enough for it to pay.
 * Caller frees. */
char *tt_check_shim_pch(const tt_check_toolchain *tc, const char *harness_text);

/* Makes `rules_dir`/hip/support (when it exists) the support dir of HIP builds and
 * folds its files into sim_hash, so that editing the compat header rebuilds. */
void tt_check_toolchain_set_hip_support(tt_check_toolchain *tc, const char *rules_dir);

/* Writes the prepared kernel source into the cache under a content-addressed name
 * that keeps the original basename (so compiler messages read naturally), and returns
 * its path (malloc'd). The text gets a leading `#line 1 "orig_path"` so that the sim
 * and the compiler report the original file's lines. NULL with *err on failure. */
char *tt_check_stage_source(const tt_check_toolchain *tc, const char *orig_path,
                            const char *prepared, size_t len, char **err);

/* Compiles harness_text (for the kernel at kernel_path: the path its `#line` names,
 * whose directory is searched for its includes) unless the cache has it. Returns 0 with *exe (malloc'd path);
 * 1 for a compile error with *log holding the first error lines; -1 for an internal
 * failure with *log. *cached tells whether the binary came from the cache. When
 * keep_dir is not NULL the harness source and the compiler output are also
 * written there under `stem`. nvcc: build a real CUDA program with `nvcc` (the cuda
 * backend) instead of a sim harness with the C++ compiler. */
int tt_check_build_harness(const tt_check_toolchain *tc, const char *harness_text,
                           const char *kernel_path, const char *keep_dir, const char *stem,
                           int nvcc, char **exe, int *cached, char **log);

/* The first error lines of compiler output (malloc'd): from the first line that
 * contains "error", at most max_lines lines, preceded by the first line that points
 * into kernel_path (e.g. "k.cu:30:22: required from here") when the error itself is
 * elsewhere (a shim header). kernel_path may be NULL. */
char *tt_check_first_errors(const char *text, const char *kernel_path, int max_lines);

/* The absolute form of path when it exists, else path itself (malloc'd). */
char *tt_check_abspath(const char *path);

/* mkdir -p. Returns 0 or -1. */
int tt_check_mkdirs(const char *path);

#endif
