// The HIP port of last_writer.cu: the same text with hip_runtime.h (hipcc checks it).
// Every thread stores its index into the same word: the value left behind is
// whichever thread ran last, so the output depends on the lane schedule. No
// __shared__ memory is involved: only comparing schedules can catch this.
#include <hip/hip_runtime.h>

__global__ void last_writer(int *out) {
  out[0] = threadIdx.x;
}
