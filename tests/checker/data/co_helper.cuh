// co_helper.cuh — a barrier inside a helper from another file: the kernel
// that calls it is prepared as a coroutine but cannot await it.
__device__ inline float barrier_then(float v)
{
    __syncthreads();
    return v;
}
