#pragma once
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include "inc/extra.cuh"
#define SCALE 2.0f
__shared__ float helper_buf[64];
template <typename T> __device__ T twice(T v) { return v * SCALE + EXTRA; }
static void helper_host(cublasHandle_t h) { cublasCreate(&h); }
