// near-miss: quantize_q8_blocks.cu - symmetric int8 block quantization with one
// fp32 scale per block of 32 values (the Q8_0 layout of GGML-style quantized
// tensors): d = max|x| / 127, q = round(x / d). One 32-lane warp per block of 32
// values; the block's max|x| comes from an xor butterfly that every lane reads.
//
// Looks like: `for (o = 16; o > 0; o >>= 1) __shfl_xor_sync(...)`, `tid & 31`,
// `tid >> 5`, `QK 32`, `i / 32` for the block index, a full warp mask.
// Correct on wave64 because: the butterfly starts at 16 and xors never leave an
// aligned group of 32 lanes, so a 64-lane wavefront behaves exactly as two
// independent 32-lane groups; each group's result is read only by lanes of the
// same group (`tid >> 5` picks the data block, `tid & 31` the value in it), which
// is porting strategy 1 done consistently. `i / 32` indexes data blocks of 32
// values, not warps. The mask is the platform's full lane mask (64-bit on AMD,
// as the HIP *_sync functions require).

#include <hip/hip_runtime.h>

#include <cstdint>

#define QK 32  // values per quantization block

#if defined(__HIP_PLATFORM_AMD__)
#define FULL_LANES 0xffffffffffffffffull
#else
#define FULL_LANES 0xffffffffu
#endif

// x: nblocks * QK floats; q: nblocks * QK int8; d: nblocks scales.
// block: a multiple of 32 threads; thread t handles value (t & 31) of data block t >> 5.
__global__ void quantize_q8_blocks(const float* __restrict__ x, int8_t* __restrict__ q,
                                   float* __restrict__ d, int nblocks) {
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int blk = tid >> 5;  // data block of 32 values
    const int j = tid & 31;    // position inside the data block
    const bool valid = blk < nblocks;

    const float v = valid ? x[size_t(blk) * QK + j] : 0.0f;
    float amax = fabsf(v);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) amax = fmaxf(amax, __shfl_xor(amax, o, 32));

    const float scale = amax / 127.0f;
    const float inv = amax > 0.0f ? 127.0f / amax : 0.0f;
    if (valid) {
        q[size_t(blk) * QK + j] = int8_t(__float2int_rn(v * inv));
        if (j == 0) d[blk] = scale;
    }
}
