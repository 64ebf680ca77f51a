/* side.h — building and running one side (reference or candidate) of a check.
 *
 * Owned by the checker. A side is a kernel source plus the semantics it runs under:
 * the SIMT executor with CUDA semantics (warp 32) or HIP semantics (warp 64/32), or
 * a real GPU through nvcc. Each run happens in a child process with a time limit;
 * crashes, signals and the executor's own reports (out of bounds, races, barrier
 * divergence, deadlock, ...) come back as one message. */
#ifndef TT_CHECK_SIDE_H
#define TT_CHECK_SIDE_H

#include <stddef.h>
#include <stdint.h>
#include "checker/build.h"
#include "checker/check.h"
#include "checker/spec.h"

typedef enum tt_check_side_kind {
  TT_CHECK_SIDE_SIM_CUDA,  /* SIMT executor, tt_sim_cuda.h */
  TT_CHECK_SIDE_SIM_HIP,   /* SIMT executor, tt_sim_hip.h */
  TT_CHECK_SIDE_NVCC,      /* nvcc build run on an NVIDIA GPU */
  TT_CHECK_SIDE_HIPCC      /* hipcc build run on an AMD GPU (not available yet) */
} tt_check_side_kind;

typedef struct tt_check_side_ctx {
  const tt_check_toolchain *tc;
  const tt_check_spec *spec;
  const tt_check_options *o;
  const char *workdir;
  const char *role;        /* "reference" or "candidate" */
  const char *path;        /* the kernel source (for messages and #line) */
  const char *text;        /* its text; NULL: read path */
  size_t len;
  tt_check_side_kind kind;
  int warp;
  char *exe;               /* built harness */
  int cached;
  unsigned char *outputs[4]; /* bytes of the output buffers after each schedule's run
                                (a real GPU runs once) */
  int nruns;
  double run_s;
  char *notes;             /* the sim's "tt_sim: note/warning: ..." lines of a run that
                              succeeded, each once (malloc'd; NULL: none) */
} tt_check_side_ctx;

void tt_check_side_init(tt_check_side_ctx *c, const tt_check_toolchain *tc, const tt_check_spec *spec,
                        const tt_check_options *o, const char *workdir, const char *role,
                        const char *path, const char *text, size_t len, tt_check_side_kind kind,
                        int warp);

/* Builds the side's harness. Returns 0, or -1 with *err (malloc'd). */
int tt_check_side_build(tt_check_side_ctx *c, char **err);

/* Runs the built harness on the inputs file under every schedule of the options.
 * Returns 0 with c->outputs[0..nruns) filled (each exactly the spec's output bytes),
 * or -1 with *err (malloc'd) describing the failure. */
int tt_check_side_run(tt_check_side_ctx *c, const char *inputs_path, uint64_t seed, char **err);

void tt_check_side_free(tt_check_side_ctx *c);

/* Bytes of all `output: true` buffers of a spec, back to back. */
size_t tt_check_side_output_bytes(const tt_check_spec *spec);

/* Removes a work dir and the files in it (flat: the checker makes no subdirs). */
void tt_check_side_rmtree(const char *dir);

#endif
