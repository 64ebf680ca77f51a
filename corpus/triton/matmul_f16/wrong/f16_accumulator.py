# pitfall: an f16 accumulator (seed 000: "max abs diff 1.5e+01"); expect: MISMATCH
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(A, B, C, M, N, K, stride_am, stride_bk, stride_cm,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float16)
    for k in range(0, K, BK):
        a = tl.load(A + offs_m[:, None] * stride_am + (k + offs_k)[None, :])
        b = tl.load(B + (k + offs_k)[:, None] * stride_bk + offs_n[None, :])
        acc = tl.dot(a, b, acc, out_dtype=tl.float16)
    tl.store(C + offs_m[:, None] * stride_cm + offs_n[None, :], acc)


def matmul(A, B, C):
    M, K = A.shape
    N = B.shape[1]
    matmul_kernel[(M // 64, N // 64)](A, B, C, M, N, K, A.stride(0), B.stride(0), C.stride(0), BM=64, BN=64, BK=32)
