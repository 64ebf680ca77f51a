#include "kern.cu"

int main() {
  float *host = nullptr;
  cudaMallocHost(&host, 64 * sizeof(float));
  cudaFreeHost(host);
  return 0;
}
