// co_helper.h — included by co.hip as it is (not prepared): the barrier in
// here is outside the body of the kernel that calls it, so that kernel,
// made a coroutine, cannot await it (TT_SIM_ERR_NEEDS_FIBERS).
__device__ inline int helper_sync(int v)
{
    __syncthreads();
    return v + 1;
}
