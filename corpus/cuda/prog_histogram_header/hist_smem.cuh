// hist_smem.cuh - the block-private histogram this program's kernel fills: a
// __shared__ array declared here, in the header, and its helpers.
#pragma once

#define HIST_BINS 64

__shared__ unsigned int hist_smem[HIST_BINS];

__device__ __forceinline__ void hist_clear() {
    for (int b = threadIdx.x; b < HIST_BINS; b += blockDim.x) hist_smem[b] = 0;
    __syncthreads();
}

__device__ __forceinline__ void hist_flush(unsigned int* global_hist) {
    __syncthreads();
    for (int b = threadIdx.x; b < HIST_BINS; b += blockDim.x) atomicAdd(&global_hist[b], hist_smem[b]);
}
