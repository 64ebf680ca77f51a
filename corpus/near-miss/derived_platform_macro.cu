// derived_platform_macro.cu - near miss: the project derives its own platform macro
// (`MY_GPU_HIP`, the way bitsandbytes defines BNB_HIP) from `__HIP_PLATFORM_AMD__`
// and switches on it. The 32-bit ballot and `__popc` are in the branch a HIP build
// does not compile (MY_GPU_HIP is 1 there); the HIP branch counts a 64-bit ballot.
#include <cuda_runtime.h>

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)
#define MY_GPU_HIP 1
#else
#define MY_GPU_HIP 0
#endif

__device__ int warp_count(bool p) {
#if MY_GPU_HIP
    return __popcll(__ballot(p));
#else
    unsigned int votes = __ballot_sync(0xffffffff, p);
    return __popc(votes);
#endif
}

__global__ void count_positive(const float* __restrict__ in, int* __restrict__ count, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = warp_count(i < n && in[i] > 0.0f);
    if (threadIdx.x % warpSize == 0) atomicAdd(count, c);
}
