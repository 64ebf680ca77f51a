/* realcc.h — compiling a check's sources with the real GPU compilers.
 *
 * Owned by the checker. The sim runs a port on the CPU with header shims; a PASS
 * must also mean that the port builds for the GPU. So whenever `hipcc` is installed,
 * `check` compiles the HIP candidate with it (syntax only, for gfx90a, host and
 * device), and whenever `nvcc` is, the CUDA reference with it (sm_90, to an object
 * thrown away). Results are cached by content (compiler, flags, text, the headers
 * next to the source), so a warm check costs no compile. */
#ifndef TT_CHECK_REALCC_H
#define TT_CHECK_REALCC_H

#include <stddef.h>

#include "checker/build.h"

typedef enum { TT_CHECK_REALCC_HIPCC, TT_CHECK_REALCC_NVCC } tt_check_realcc;

/* The compiler command for kind, found as build.h's toolchain does: $TILETRANS_HIPCC /
 * $TILETRANS_NVCC when set (an empty value turns the compile off), else hipcc in PATH,
 * else nvcc in PATH or /usr/local/cuda/bin/nvcc. NULL when there is none (malloc'd). */
char *tt_check_realcc_find(tt_check_realcc kind);

/* The compiler's display name ("hipcc", "nvcc"). */
const char *tt_check_realcc_name(tt_check_realcc kind);

/* The spec's own build flags (`includes:` folders, absolute, and `defines:` NAME or
 * NAME=VALUE), which the real compilers get as -I and -D as the sim's build does. */
typedef struct tt_check_realcc_flags {
  char *const *includes;
  size_t nincludes;
  char *const *defines;
  size_t ndefines;
} tt_check_realcc_flags;

/* Compiles text (the source at orig_path, whose directory and extra_dir, if not NULL,
 * are searched for includes, then fl's folders, with fl's defines; fl may be NULL)
 * with the toolchain's compiler of that kind. Returns 0 when
 * it compiles (or *cached said so before), 1 when it does not, with *log (malloc'd)
 * holding the compiler's first error lines, which start at the first "file:line:"
 * error; -1 when the compiler could not be run, with *log saying why. */
int tt_check_realcc_compile(const tt_check_toolchain *tc, tt_check_realcc kind, const char *orig_path,
                            const char *extra_dir, const tt_check_realcc_flags *fl, const char *text, size_t len,
                            int *cached, char **log);

/* After the sim's PASS: the reference (the file at ref_path) with nvcc and the
 * candidate (cand_text, from cand_path) with hipcc, each where installed, both with
 * the spec's flags fl. NULL when
 * both build (or neither compiler is installed); else the BUILD-FAIL message
 * (malloc'd) naming the side and the compiler and quoting its first error. A compiler
 * that cannot be run at all is not a verdict on the source: it is skipped. When nvcc
 * stops at a header that neither this machine nor the sim has (a host library of the
 * user's file), the reference is not a failure: *note (malloc'd, else NULL) says so. */
char *tt_check_realcc_sides(const tt_check_toolchain *tc, const char *ref_path, const char *cand_path,
                            const char *cand_text, size_t cand_len, const tt_check_realcc_flags *fl, char **note);
#endif
