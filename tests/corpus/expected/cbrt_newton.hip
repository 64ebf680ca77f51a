// cbrt_newton.cu - elementwise cube root by Newton's method,
// y <- (2y + a / y^2) / 3, iterated to a relative tolerance. To keep the warp
// converged (no divergent tail of stragglers), the loop is warp-uniform: every lane
// keeps iterating (converged lanes idle) until a ballot shows that all lanes of
// the warp have converged.
//
// Pitfall: `__popc(__ballot_sync(FULL_MASK, done)) == warpSize` as the warp-wide
// exit test (popcount of a 32-bit ballot compared with the built-in warpSize),
// FULL_MASK = 0xffffffffu; on wave64 with renames only: hang.
// Why: on CDNA __ballot_sync returns 64 bits but __popc takes an unsigned int, so
// the count is that of lanes 0..31 only and can never exceed 32, while warpSize is
// 64. The exit condition is never true and every wavefront spins forever (a
// checker sees a timeout). With __popcll the count would reach 64 and the kernel
// would be correct; with the constant 32 instead of warpSize it would stop as soon
// as the lower half converged and leave the upper half unconverged (wrong numbers).
// wave32 (RDNA, gfx1030): unaffected.

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
        if (__popcll(((unsigned)(__ballot(done) >> (__lane_id() & 32)))) == 32) break;
    }
    if (i < n) out[i] = y;
}
