// tt_sim_cuda_or_current.h — target of the CUDA compatibility headers
// (cuda_runtime.h, cooperative_groups.h, ...): whichever dialect the harness
// already chose, else CUDA.  A HIP translation may keep including
// cuda_fp16.h or cooperative_groups.h and stays HIP.
#if !defined(TT_SIM_DIALECT_CUDA) && !defined(TT_SIM_DIALECT_HIP)
#include "tt_sim_cuda.h"
#endif
