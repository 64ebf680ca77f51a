/* harness.h — the C++ program that runs one side of a check in the SIMT executor.
 *
 * Owned by the checker. For each (spec, side) tiletrans writes a harness TU that
 * includes the sim shim (CUDA or HIP semantics, TT_SIM_WARP fixed at compile time),
 * then the kernel source (prepared by tt_xf_prepare_source), and a main() that
 * loads the inputs tiletrans generated, launches the kernel through TT_SIM_LAUNCH,
 * and writes the outputs and a result file. The harness text depends only on the
 * kernel's signature as the spec describes it (and on the buffer offsets of a
 * sequence's launches, `out + 256`), not on sizes or data, so one build serves every
 * seed and size (the build cache relies on that). A spec with `launches:` runs its
 * kernels in order on the same buffers in each schedule's run.
 *
 * Files exchanged with the harness (all little-endian, the host's layout):
 *   inputs:  "TTCHKIN1" then u64 nargs, then per argument u64 nbytes and the bytes
 *            (scalars: an 8-byte slot holding the value in its own type).
 *   outputs: OUT.0, OUT.1, ...: one file per schedule run (in SCHEDULES order), each
 *            the bytes of every `output: true` buffer, in argument order. Buffers are
 *            restored from the inputs before each schedule's launch.
 *   result:  text lines "status=NAME", "schedule=N", "file=PATH", "line=N", then
 *            "message:" and the sim's message to the end of the file.
 * argv: IN OUT RESULT GX GY GZ BX BY BZ SHARED SCHEDULES SEED TIMEOUT
 *   (GX..SHARED: comma-separated, one entry per launch;
 *   SCHEDULES: comma-separated forward,reverse,random; the run stops at the first
 *   schedule that fails, and the result names it). */
#ifndef TT_CHECK_HARNESS_H
#define TT_CHECK_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include "checker/spec.h"

typedef enum tt_check_side_sem {
  TT_CHECK_SEM_CUDA,   /* tt_sim_cuda.h: the reference */
  TT_CHECK_SEM_HIP     /* tt_sim_hip.h: the candidate */
} tt_check_side_sem;

/* The harness text (malloc'd; caller frees). kernel_include is the path of the
 * prepared kernel source, written into an #include. */
char *tt_check_harness_text(const tt_check_spec *spec, tt_check_side_sem sem, int warp,
                            const char *kernel_include);

/* The same protocol as a real CUDA program for nvcc (the cuda backend): cudaMalloc,
 * a <<<grid, block, shared>>> launch, cudaDeviceSynchronize. Schedules, seed and
 * tolerance arguments are accepted and ignored. */
char *tt_check_harness_text_cuda(const tt_check_spec *spec, const char *kernel_include);

/* Serialises the spec's arguments (buffers filled from their inits with `seed`) in
 * the inputs format above. Returns a malloc'd buffer and its size in *len, or NULL
 * when memory runs out. */
unsigned char *tt_check_inputs_make(const tt_check_spec *spec, uint64_t seed, size_t *len);

/* Where each argument's bytes start inside an inputs blob, for comparing outputs
 * against inputs and for reading a buffer's initial state. */
const unsigned char *tt_check_inputs_arg(const unsigned char *blob, size_t len, size_t idx,
                                         size_t *nbytes);

#endif
