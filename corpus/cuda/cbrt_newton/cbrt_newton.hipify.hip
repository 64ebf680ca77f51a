// cbrt_newton.hipify.hip - renames-only HIP translation of cbrt_newton.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see cbrt_newton.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): hang - __popc of the (truncated) ballot never reaches warpSize = 64.
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__ballot_sync undeclared).
// ROCm >= 6.2: 0xffffffffu mask rejected by static_assert.

#include <hip/hip_runtime.h>

#define FULL_MASK 0xffffffffu

// block: a multiple of 32 threads (out-of-range lanes take part as converged lanes).
__global__ void cbrt_newton(const float* __restrict__ in, float* __restrict__ out, int n,
                            float rel_tol) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float a = i < n ? in[i] : 1.0f;  // inputs are positive

    float y = a > 1.0f ? a / 3.0f + 0.5f : 1.0f;  // crude start, above the root
    bool done = i >= n;
    for (;;) {
        if (!done) {
            const float y_next = (2.0f * y + a / (y * y)) * (1.0f / 3.0f);
            done = fabsf(y_next - y) <= rel_tol * y_next;
            y = y_next;
        }
        // leave together once every lane of the warp has converged
        if (__popc(__ballot_sync(FULL_MASK, done)) == warpSize) break;
    }
    if (i < n) out[i] = y;
}
