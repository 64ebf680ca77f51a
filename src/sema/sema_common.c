/* What both builds of the semantic layer share (with and without libclang). */
#include "sema/sema_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* hipcc (clang -x hip) predefines the first five for device compilation; HIP 5.2's
 * version macros follow; USE_ROCM is what PyTorch extensions (apex, DeepSpeed) define
 * for their ROCm builds. Project-specific ones (GGML_USE_HIP) come from a compile
 * database, --hip-define or `.tiletrans.yaml`. */
static const char *const default_hip_defines[] = {
    "__HIP_PLATFORM_AMD__=1", "__HIP_PLATFORM_HCC__=1", "__HIPCC__=1", "__HIP__=1", "__HIP_DEVICE_COMPILE__=1",
    "HIP_VERSION_MAJOR=5",    "HIP_VERSION_MINOR=2",    "HIP_VERSION=50200000", "USE_ROCM=1", NULL};

/* nvcc's device pass for sm_80 with CUDA 12.0, and cuda.h's version macros. */
static const char *const cuda_defines[] = {"__CUDACC__=1",          "__NVCC__=1",          "__CUDA_ARCH__=800",
                                           "__CUDACC_VER_MAJOR__=12", "__CUDACC_VER_MINOR__=0", "CUDA_VERSION=12000",
                                           "CUDART_VERSION=12000", NULL};

const char *const *tt_sema_default_hip_defines(void) { return default_hip_defines; }

const char *const *tt_sema_side_defines(tt_sema_side side) {
  return side == TT_SEMA_HIP ? default_hip_defines : cuda_defines;
}

char **tt_sema_copy_strings(const char *const *v, size_t n) {
  char **out = tt_xcalloc(n + 1, sizeof *out);
  for (size_t i = 0; i < n; i++) out[i] = tt_xstrdup(v[i]);
  return out;
}

void tt_sema_free_strings(char **v) {
  for (size_t i = 0; v && v[i]; i++) free(v[i]);
  free(v);
}
