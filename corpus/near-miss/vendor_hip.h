// vendor_hip.h - the HIP side of vendor_header_guard.cu's compatibility layer (the
// style of ggml's vendors/hip.h): the CUDA _sync intrinsics are mapped to HIP's
// mask-free ones with the caller's explicit width.
#pragma once
#include <hip/hip_runtime.h>
#define __shfl_xor_sync(mask, var, laneMask, width) __shfl_xor(var, laneMask, width)
#define __shfl_sync(mask, var, srcLane, width) __shfl(var, srcLane, width)
