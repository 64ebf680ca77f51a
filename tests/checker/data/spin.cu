// Waits for a flag that nobody sets: the sim's time limit must stop it.
#include <cuda_runtime.h>

__global__ void spin(const int *flag, int *out) {
  while (*(const volatile int *)flag == 0) {
  }
  out[threadIdx.x] = 1;
}
